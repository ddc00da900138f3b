// Attempts on the host side of a job: the task's own metric.py (issue 10.2), the scorer's
// resources (issue 10.4), for the per-node and the persistent scorer (issue 17.3), and a submission
// trying to change the next one's score in the persistent scorer's long-lived sandbox.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadTask } from "../../../kit/gym/index.js";
import { persistentScorer, runSandbox, sandboxedScorer } from "../../../kit/sandbox/index.js";
import { copyTask, spyMetric, TINY_TASK_DIR } from "../../../kit/sandbox/test-helpers.js";
import type { Attempt } from "../attempt.js";

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
  ...(["per-node", "persistent"] as const).flatMap((kind): Attempt[] => {
    const scorer = (l: { timeoutS?: number; memoryMb?: number }) => (kind === "per-node" ? sandboxedScorer({ limits: l }) : persistentScorer({ limits: l }));
    const suffix = kind === "per-node" ? "" : "-persistent";
    return [
      {
        id: `scorer-time${suffix}`, source: kind === "per-node" ? "issue 10.4" : "issue 17.3", what: `a metric that sleeps 600 s (${kind} scorer, limit 3 s)`, perExecutor: false,
        async run(ctx) {
          const task = await loadTask(copyTask(join(ctx.dir, `slow-task${suffix}`), { "utils/metric.py": spyMetric("import time\ntime.sleep(600)") }, ctx.meta));
          const t0 = performance.now();
          const r = await runSandbox({ task, code: SAMPLE, limits, scorer: scorer({ timeoutS: 3 }) });
          const s = (performance.now() - t0) / 1000;
          return { held: r.errorSignature === "metric_error" && s < 60, detail: `${r.errorSignature} after ${s.toFixed(1)} s` };
        },
      },
      {
        id: `scorer-memory${suffix}`, source: kind === "per-node" ? "issue 10.4" : "issue 17.3", what: `a metric that allocates 10 GB (${kind} scorer, cap 256 MiB)`, perExecutor: false,
        async run(ctx) {
          const task = await loadTask(copyTask(join(ctx.dir, `hungry-task${suffix}`), { "utils/metric.py": spyMetric("x = [bytearray(50 * 2**20) for _ in range(200)]") }, ctx.meta));
          const r = await runSandbox({ task, code: SAMPLE, limits, scorer: scorer({ memoryMb: 256 }) });
          return { held: r.status === "scoring_failure" && /memory/i.test(r.traceback ?? ""), detail: `${r.status}: ${(r.traceback ?? "").slice(0, 70)}` };
        },
      },
    ];
  }),
  {
    id: "scorer-carry-over", source: "issue 17.3",
    what: "a submission that gets code run in the metric (stand-in for an exploitable metric) leaves a global, a file, a process and emptied answers for the next score",
    perExecutor: false,
    async run(ctx) {
      // The metric runs the submission's first label as Python; its score counts what it finds left over.
      const metric = `import os
SEEN = {"n": 0}
class Exploitable:
    def __init__(self, value="label", higher_is_better=True):
        self.value = value
    def validate_submission(self, submission, ground_truth):
        pass
    def evaluate(self, y_true, y_pred):
        SEEN["n"] += 1
        exec(str(y_pred[self.value].iloc[0]).replace(";", "\\n"))
        others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid())]
        return SEEN["n"] + 10 * os.path.exists("/tmp/x") + 100 * len(others) + 1000 * (len(y_true) == 0)
`;
      const task = await loadTask(copyTask(join(ctx.dir, "exploitable-task"), { "utils/metric.py": metric }, ctx.meta));
      const answers = readFileSync(join(TINY_TASK_DIR, "data", "private", "test_answer.csv"), "utf8");
      const sub = (name: string, code: string) => {
        const f = join(ctx.dir, `${name}.csv`);
        writeFileSync(f, answers.replace(/^(id,label\n[^,]+),[^\n]*/, `$1,"${code}"`));
        return f;
      };
      const attack = "open('/tmp/x','w').write('x');y_true.drop(y_true.index,inplace=True);import os,time;os.fork() or (os.setsid(),time.sleep(600))";
      const score = persistentScorer();
      try {
        const a = await score(task, sub("attack", attack));
        const b = await score(task, sub("plain", "1"));
        return { held: b.ok && b.score === 1, detail: `attack scored ${a.ok ? a.score : a.message}; the next submission ${b.ok ? b.score : b.message} (1 = nothing carried over)` };
      } finally {
        await score.close();
      }
    },
  },
];
