// %% [markdown]
// # 02 · The sandbox
// A program is `code/main.py`. The sandbox runs it with `DATA_DIR` pointing at the task's public data,
// expects `submission.csv` in its working directory and a `Final Validation Score: <float>` line, scores
// the submission with the task's hidden metric, and returns an **execution record**. Every record is one
// of six feedback modes (docs/paper-map.md: Sandbox feedback modes); the mode decides whether search calls Debug
// or Improve next.
//
// The local backend runs `/usr/bin/python3` under bubblewrap: no network, a private `/tmp`, system folders
// and public data read-only, only the job folder writable, `data/private` never mounted, a PID namespace
// (the whole process tree dies with the job) and a per-job cgroup for the memory cap.
// %%
import * as tslab from "tslab";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym, htmlTable, openWorkspace, runSandbox, sandbox, notebookFigure, type ExecutionRecord } from "openmle";

const task = await gym.loadTask(join(gym.projectRoot(), "kit", "sandbox", "test-fixtures", "tiny-task"));
const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "nb02-")), "ws"));
console.log(`task ${task.meta.id}: ${task.meta.metric} (${task.meta.higherIsBetter ? "higher" : "lower"} is better), ${task.meta.nTrain} train / ${task.meta.nTest} test rows`);
console.log(`inside the sandbox: DATA_DIR=${sandbox.SANDBOX_DATA_DIR} (read-only), working directory ${sandbox.SANDBOX_WORKDIR} (writable)`);
// %% [markdown]
// ## One program per feedback mode
// Six small, real programs. Each runs in its own job folder; the records go to the workspace's
// `executions` table.
// %%
// (Object shorthand like `{ task }` is avoided in these cells: tslab does not rewrite it to the
// variables of earlier cells.)
const programs: Record<string, string | null> = {
  success: `
import os, pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
d = os.environ["DATA_DIR"]
train, test = pd.read_csv(f"{d}/train.csv"), pd.read_csv(f"{d}/test.csv")
m = LogisticRegression()
print(f"Final Validation Score: {cross_val_score(m, train[['x1','x2']], train['label'], cv=5).mean():.4f}")
m.fit(train[["x1", "x2"]], train["label"])
pd.DataFrame({"id": test["id"], "label": m.predict(test[["x1", "x2"]])}).to_csv("submission.csv", index=False)
`,
  runtime_error: `
import pandas as pd
train = pd.read_csv("train.csv")   # wrong folder: the data is under DATA_DIR
`,
  missing_code: "",
  missing_submission: `
print("trained a great model")
print("Final Validation Score: 0.99")
`,
  scoring_failure: `
import os, pandas as pd
test = pd.read_csv(os.path.join(os.environ["DATA_DIR"], "test.csv"))
pd.DataFrame({"id": test["id"][:5], "label": 1}).to_csv("submission.csv", index=False)  # 5 rows, not 20
print("Final Validation Score: 0.7")
`,
  timeout: `
import time
print("thinking...", flush=True)
time.sleep(60)
`,
};
const records: ExecutionRecord[] = [];
for (const [mode, code] of Object.entries(programs)) {
  records.push(await runSandbox({ task: task, code: code, limits: { timeoutS: mode === "timeout" ? 2 : 60, memoryMb: 1024, cpus: 1 }, workspace: ws }));
}
const table = (rs: readonly ExecutionRecord[]) => rs.map((r) => ({
  status: r.status, signature: r.errorSignature, error_type: r.errorType, valid_score: r.validScore, test_score: r.testScore,
  wall_s: +r.wallS.toFixed(2), cpu_s: +r.cpuS.toFixed(2), peak_mb: r.peakMemMb === null ? null : +r.peakMemMb.toFixed(0), artifacts: r.artifacts.join(" "),
}));
tslab.display.html(htmlTable(table(records)));
// %% [markdown]
// What the program saw is kept in bounded tails; a failure keeps a traceback excerpt.
// %%
console.log(records[1]!.traceback);
console.log(records[4]!.traceback);
// %% [markdown]
// ## The records in the workspace
// The same records, from SQL. Running the same program again with the same limits returns the stored
// record (same idempotency key) without running it.
// %%
tslab.display.html(htmlTable(await ws.query("SELECT status, error_signature, valid_score, test_score, round(wall_s, 2) AS wall_s, idempotency_key FROM executions ORDER BY started_at")));
const again = await runSandbox({ task: task, code: programs.success!, limits: { timeoutS: 60, memoryMb: 1024, cpus: 1 }, workspace: ws });
console.log(`re-run of success → same execution: ${again.executionId === records[0]!.executionId}`);
// %% [markdown]
// ## A timeout kills the whole process tree
// This program starts four workers (one of them a double-forked daemon in its own session) and then
// hangs. Each worker sleeps with a marker in its command line, so we can look for it among the host's
// processes: during the run they exist, after the timeout none is left.
// %%
const token = `nb02-${Date.now()}`;
const tree = `
import os, time
for i in range(4):
    if os.fork() == 0:
        if i == 3:
            os.setsid()
            if os.fork() != 0:
                os._exit(0)
        os.execv("/usr/bin/python3", ["/usr/bin/python3", "-c", "import time; time.sleep(600)  # ${token}"])
print("started 4 workers", flush=True)
time.sleep(600)
`;
const hostPids = () => readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
  try { return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(token); } catch { return false; }
});
const running = runSandbox({ task: task, code: tree, limits: { timeoutS: 3, memoryMb: 512, cpus: 1 } });
await new Promise((r) => setTimeout(r, 1500));
const during = hostPids().length;
const rec = await running;
console.log(`status ${rec.status} after ${rec.wallS.toFixed(2)} s; workers on the host during the run: ${during}, after: ${hostPids().length}`);
// %% [markdown]
// ## Where the time goes
// %%
tslab.display.html(notebookFigure({
  data: [{ type: "bar", x: records.map((r) => r.status), y: records.map((r) => r.wallS), name: "wall s" },
         { type: "bar", x: records.map((r) => r.status), y: records.map((r) => r.cpuS), name: "cpu s" }],
  layout: { title: { text: "Wall and CPU time per feedback mode" }, barmode: "group", yaxis: { title: { text: "seconds" } } },
}));
ws.close();
