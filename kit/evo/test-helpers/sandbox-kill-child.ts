// A run with the real sandbox in its own process, for the kill -9 recovery test:
//   node --import tsx sandbox-kill-child.ts <ws> <block|run> [resumeRunId]
// block: the first record is stored by runSandbox (as `openmle evolve` with one worker does), then the
// process waits forever before evolve writes the node, so the test's SIGKILL lands in that window.
// Step 0's program carries this process's pid (a policy that writes other code on a retry, like an
// LLM); step 1's sleeps 5 s first, so a SIGKILL can land while it runs.
import { loadTask } from "../../gym/index.js";
import type { Policy } from "../../policy/types.js";
import { runSandbox } from "../../sandbox/index.js";
import { program, TINY_TASK_DIR } from "../../sandbox/test-helpers.js";
import { openWorkspace } from "../../store/index.js";
import { evolve } from "../evolve.js";

const [wsDir, mode, resume] = process.argv.slice(2);
const ws = await openWorkspace(wsDir!);
const task = await loadTask(TINY_TASK_DIR);
const say = (s: string) => process.stdout.write(`${s}\n`);
let calls = 0;
const policy: Policy = {
  name: "kill-test",
  async propose(_task, _op, ctx) {
    const code = ctx.nodeId === "n0000" ? `# writer ${process.pid}\n${program("success")}` : `import time\ntime.sleep(5)\n${program("success")}`;
    calls++;
    return { plan: `call ${calls}`, code, usage: { promptChars: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 } };
  },
};
const res = await evolve({
  task, policy, workspace: ws, resume: resume || undefined, runId: "kill-run", config: { steps: 2, gen0Drafts: 2, perRunTimeoutS: 60, memoryMb: 1024 },
  evaluate: async (job) => {
    const rec = await runSandbox({ ...job, workspace: ws, onEvent: (e) => e.type === "exec-start" && say(`exec-start ${job.nodeId}`) });
    if (mode === "block") {
      say(`stored ${job.nodeId}`);
      await new Promise(() => {});
    }
    return rec;
  },
  onEvent: (e) => e.type === "node" && say(`node ${e.node.nodeId}`),
});
ws.close();
say(`done ${res.runId} ${res.nodes.length}`);
