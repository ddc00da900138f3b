// Where a node's time goes (issue 17, goal 4): OpenMLE-Evo with the grammar policy and the real
// sandbox on built-in tasks, in a fresh workspace; prints the node_timings split per run and the
// kit's share (everything but the program itself) of node wall time. Goal: kit share ≤ 5 %.
// Usage: npm run build && node dist/bench/evo/time-split.js [--tasks penguins,seattle-weather,digits,sentiment] [--steps 4]
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve } from "../../kit/evo/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { createGrammarPolicy } from "../../kit/policy/index.js";
import { timeSplit } from "../../kit/report/index.js";
import { runSandbox } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const { values: a } = parseArgs({ options: {
  tasks: { type: "string", default: "penguins,seattle-weather,digits,sentiment" }, steps: { type: "string", default: "4" }, seed: { type: "string", default: "1" },
} });
const GOAL = 0.05;
const dir = mkdtempSync(join(tmpdir(), "openmle-bench-split-"));
const ws = await openWorkspace(join(dir, "ws"));
try {
  console.log(`load average before ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  for (const taskId of await benchTasks(a.tasks!)) {
    const task = await resolveTask(taskId);
    await evolve({ task, policy: createGrammarPolicy(), workspace: ws, runId: taskId, evaluate: (job) => runSandbox({ ...job, workspace: ws }),
      config: { seed: Number(a.seed), steps: Number(a.steps), perRunTimeoutS: 300 } });
  }
  const pct = (x: number, of: number) => `${((100 * x) / of).toFixed(1)} %`.padStart(7);
  console.log("run              nodes  node mean  program  policy  context  sandbox  scoring    store    other  kit share");
  for (const r of await timeSplit(ws)) {
    console.log(`${r.run_id.padEnd(16)} ${String(r.nodes).padStart(5)} ${(r.node_s / r.nodes).toFixed(2).padStart(8)} s ${pct(r.program_s, r.node_s)} ${pct(r.policy_s, r.node_s)} ${pct(r.context_s, r.node_s)} ${pct(r.sandbox_s, r.node_s)} ${pct(r.scoring_s, r.node_s)} ${pct(r.store_s, r.node_s)} ${pct(r.other_s, r.node_s)} ${pct(r.kit_share, 1)}${r.run_id === "all" ? `  (goal ≤ ${GOAL * 100} %: ${r.kit_share <= GOAL ? "met" : "not met"})` : ""}`);
  }
  console.log(`load average after ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
} finally {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
}
