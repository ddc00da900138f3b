// Attempts on the host side of a job: the task's own metric.py (issue 10.2) and the scorer's
// resources (issue 10.4).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadTask } from "../../../kit/gym/index.js";
import { runSandbox, sandboxedScorer } from "../../../kit/sandbox/index.js";
import { copyTask, spyMetric } from "../../../kit/sandbox/test-helpers.js";
import type { Attempt } from "../registry.js";

const SAMPLE = 'import os, shutil\nshutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")\n';
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };

export const attempts: Attempt[] = [
  {
    id: "metric-on-host", source: "issue 10.2", what: "a task's metric.py writes a host file, connects to 127.0.0.1, reads /etc/shadow", perExecutor: false,
    async run(ctx) {
      const marker = join(ctx.dir, "metric-was-here");
      const body = [
        `try:\n    open(${JSON.stringify(marker)}, "w").write("x")\nexcept OSError:\n    pass`,
        `try:\n    socket.create_connection(("127.0.0.1", ${ctx.canaryPort}), timeout=2).close()\nexcept OSError:\n    pass`,
        `try:\n    seen["shadow"] = len(open("/etc/shadow").read())\nexcept OSError:\n    seen["shadow"] = None`,
      ].join("\n");
      const before = ctx.canaryConnections();
      const task = await loadTask(copyTask(join(ctx.dir, "spy-task"), { "utils/metric.py": spyMetric(body) }, ctx.meta));
      const r = await runSandbox({ task, code: SAMPLE, limits });
      const shadow = /"shadow": (\d+)/.test(r.traceback ?? "");
      const held = !existsSync(marker) && ctx.canaryConnections() === before && !shadow;
      return { held, detail: `host file ${existsSync(marker) ? "written" : "not written"}, connections ${ctx.canaryConnections() - before}, shadow ${shadow ? "read" : "unreadable"}` };
    },
  },
  {
    id: "scorer-time", source: "issue 10.4", what: "a metric that sleeps 600 s (scorer limit 3 s)", perExecutor: false,
    async run(ctx) {
      const task = await loadTask(copyTask(join(ctx.dir, "slow-task"), { "utils/metric.py": spyMetric("import time\ntime.sleep(600)") }, ctx.meta));
      const t0 = performance.now();
      const r = await runSandbox({ task, code: SAMPLE, limits, scorer: sandboxedScorer({ limits: { timeoutS: 3 } }) });
      const s = (performance.now() - t0) / 1000;
      return { held: r.errorSignature === "metric_error" && s < 60, detail: `${r.errorSignature} after ${s.toFixed(1)} s` };
    },
  },
  {
    id: "scorer-memory", source: "issue 10.4", what: "a metric that allocates 10 GB (scorer cap 256 MiB)", perExecutor: false,
    async run(ctx) {
      const task = await loadTask(copyTask(join(ctx.dir, "hungry-task"), { "utils/metric.py": spyMetric("x = [bytearray(50 * 2**20) for _ in range(200)]") }, ctx.meta));
      const r = await runSandbox({ task, code: SAMPLE, limits, scorer: sandboxedScorer({ limits: { memoryMb: 256 } }) });
      return { held: r.status === "scoring_failure" && /memory/i.test(r.traceback ?? ""), detail: `${r.status}: ${(r.traceback ?? "").slice(0, 70)}` };
    },
  },
];
