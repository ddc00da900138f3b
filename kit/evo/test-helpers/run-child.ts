// A run in its own process, for the kill -9 test: node --import tsx run-child.ts <ws> <taskDir> <steps> <seed> [resumeRunId]
import { openWorkspace } from "../../store/index.js";
import { evolve } from "../evolve.js";
import { pythonEvaluate } from "./python-evaluator.js";
import { createTinyPolicy } from "./tiny-policy.js";
import { writeTinyTask } from "./tiny-task.js";

const [wsDir, taskDir, steps, seed, resume] = process.argv.slice(2);
const ws = await openWorkspace(wsDir!);
const task = writeTinyTask(taskDir!);
const res = await evolve({
  task, policy: createTinyPolicy(), workspace: ws, evaluate: pythonEvaluate, resume: resume || undefined,
  runId: "kill-run", config: { steps: Number(steps), seed: Number(seed), gen0Drafts: 3 },
  onEvent: (e) => { if (e.type === "node") process.stdout.write(`node ${e.node.nodeId}\n`); },
});
ws.close();
process.stdout.write(`done ${res.runId} ${res.nodes.length}\n`);
