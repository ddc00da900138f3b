// Stored records replayed for another package (issue 10.5).
import { join } from "node:path";
import { loadTask } from "../../../kit/gym/index.js";
import { runSandbox } from "../../../kit/sandbox/index.js";
import { copyTask, spyMetric } from "../../../kit/sandbox/test-helpers.js";
import { openWorkspace } from "../../../kit/store/index.js";
import type { Attempt } from "../attempt.js";

const SAMPLE = 'import os, shutil\nshutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")\nprint("Final Validation Score: 0.5")\n';
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };

export const attempts: Attempt[] = [
  {
    id: "fixed-package-replay", source: "issue 10.5", what: "a record stored while metric.py was broken is served after the fix", perExecutor: false,
    async run(ctx) {
      const ws = await openWorkspace(join(ctx.dir, "ws-fixed"));
      try {
        const pkg = copyTask(join(ctx.dir, "fixable"), { "utils/metric.py": spyMetric('raise RuntimeError("broken")') }, ctx.meta);
        const broken = await runSandbox({ task: await loadTask(pkg), code: SAMPLE, limits, workspace: ws });
        copyTask(pkg, {}, ctx.meta);
        const fixed = await runSandbox({ task: await loadTask(pkg), code: SAMPLE, limits, workspace: ws });
        return { held: fixed.executionId !== broken.executionId && fixed.status === "success", detail: `${broken.status} → ${fixed.status}` };
      } finally {
        ws.close();
      }
    },
  },
  {
    id: "other-package-replay", source: "issue 10.5", what: "one package's record served for another with the same task id", perExecutor: false,
    async run(ctx) {
      const ws = await openWorkspace(join(ctx.dir, "ws-other"));
      try {
        const a = await loadTask(copyTask(join(ctx.dir, "a", ctx.meta.id), {}, ctx.meta));
        const ones = "id,label\n" + Array.from({ length: 20 }, (_, i) => `${60 + i},1`).join("\n") + "\n";
        const b = await loadTask(copyTask(join(ctx.dir, "b", ctx.meta.id), { "data/private/test_answer.csv": ones }, ctx.meta));
        const ra = await runSandbox({ task: a, code: SAMPLE, limits, workspace: ws });
        const rb = await runSandbox({ task: b, code: SAMPLE, limits, workspace: ws });
        return { held: rb.executionId !== ra.executionId && rb.testScore !== ra.testScore, detail: `test scores ${ra.testScore} / ${rb.testScore}` };
      } finally {
        ws.close();
      }
    },
  },
];
