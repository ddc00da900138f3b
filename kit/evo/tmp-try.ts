import { listBuiltinTasks, resolveTask } from "../gym/index.js";
import { createGrammarPolicy } from "../policy/grammar/index.js";
import { runSandbox } from "../sandbox/index.js";
import { openWorkspace } from "../store/index.js";
import { evolve } from "./evolve.js";
import { mkdtempSync } from "node:fs"; import { tmpdir } from "node:os"; import { join } from "node:path";
console.log(listBuiltinTasks().map((t) => `${t.id}:${(t as any).modality}`).join(" "));
const t0 = Date.now();
const task = await resolveTask(process.argv[2] ?? "penguins");
console.log("resolved", task.meta.id, Date.now() - t0);
const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "try-")), "ws"));
const res = await evolve({ task, policy: createGrammarPolicy(), workspace: ws, evaluate: (job) => runSandbox({ ...job, workspace: undefined }), config: { steps: 6, seed: 1 },
  onEvent: (e) => { if (e.type === "node") console.log(e.node.nodeId, e.node.operator, e.node.status, e.node.validScore, e.node.testScore, e.node.methodFamily, e.node.sandboxS.toFixed(1), e.node.plan.slice(0, 80)); } });
console.log(res.summary);
ws.close();
