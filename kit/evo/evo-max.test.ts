import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createOpenAIModel, startReplayServer, replies } from "../llm/index.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/types.js";
import { openWorkspace } from "../store/index.js";
import { evolve } from "./evolve.js";
import type { EvoEvent } from "./events.js";
import { pythonEvaluate } from "./test-helpers/python-evaluator.js";
import { createTinyPolicy } from "./test-helpers/tiny-policy.js";
import { writeTinyTask } from "./test-helpers/tiny-task.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

describe("Evo-Max and memory synthesis", () => {
  it("keeps K executions in flight under the same step budget, and shows priors from other tasks only", async () => {
    const base = writeTinyTask(tmp("evo-task-"));
    const other = { ...base, meta: { ...base.meta, id: "other-task" } };
    const ws = await openWorkspace(join(tmp("evo-ws-"), "ws"));
    try {
      await evolve({ task: other, policy: createTinyPolicy(), workspace: ws, evaluate: pythonEvaluate, config: { steps: 4, seed: 1, gen0Drafts: 2 } });
      let inFlight = 0;
      let maxInFlight = 0;
      const cpus = new Set<number | undefined>();
      const evaluate = async (job: SandboxJob): Promise<ExecutionRecord> => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        cpus.add(job.limits?.cpus);
        try { return await pythonEvaluate(job); } finally { inFlight--; }
      };
      const memories: string[] = [];
      const policy = createTinyPolicy();
      const spy = { ...policy, propose: (t: typeof base, op: Parameters<typeof policy.propose>[1], ctx: Parameters<typeof policy.propose>[2], rng: Parameters<typeof policy.propose>[3]) => {
        memories.push(ctx.memory ?? "");
        return policy.propose(t, op, ctx, rng);
      } };
      const res = await evolve({ task: base, policy: spy, workspace: ws, evaluate, config: { steps: 8, seed: 2, workers: 3, gen0Drafts: 3, priors: true } });
      expect(res.nodes).toHaveLength(8);
      expect(maxInFlight).toBe(3);
      // Three workers share the cores: each job's thread caps get a third of them (at least one).
      expect([...cpus]).toEqual([Math.max(1, Math.floor(availableParallelism() / 3))]);
      expect(new Set(res.nodes.map((n) => n.nodeId)).size).toBe(8);
      expect(memories.every((m) => m.includes("Priors from earlier tasks:") && m.includes("other task(s)"))).toBe(true);
      // priors of a rerun on "other-task" would come from tiny-blobs only; never its own task
      const rows = await ws.query<{ n: number }>("SELECT count(*) AS n FROM nodes WHERE run_id = $r", { r: res.runId });
      expect(rows[0]!.n).toBe(8);
    } finally {
      ws.close();
    }
  });

  it("OpenMLE-Evo asks the memory model only for the nodes an operator selected, once per node (cached)", async () => {
    const server = await startReplayServer((req) => replies.text(`summary #${req.index}`));
    const ws = await openWorkspace(join(tmp("evo-ws-"), "ws"));
    try {
      const model = createOpenAIModel({ baseURL: server.baseURL, model: "replay-model", maxRetries: 0 });
      const task = writeTinyTask(tmp("evo-task-"));
      const events: EvoEvent[] = [];
      const res = await evolve({ task, policy: createTinyPolicy({ bugRate: 0 }), workspace: ws, evaluate: pythonEvaluate, memoryModel: model, config: { steps: 7, seed: 4, gen0Drafts: 3 }, onEvent: (e) => events.push(e) });
      const cached = await ws.query<{ node_id: string }>("SELECT node_id FROM memory_cache ORDER BY node_id");
      // One request per cached node, and only nodes shown to Improve/Crossover/Debug were summarised.
      expect(server.requests.length).toBe(cached.length);
      expect(cached.length).toBeGreaterThan(0);
      expect(cached.length).toBeLessThan(res.nodes.length);
      const rich = await ws.query<{ n: number }>("SELECT count(*) AS n FROM cards WHERE rich_summary IS NOT NULL");
      expect(rich[0]!.n).toBe(cached.length);
    } finally {
      ws.close();
      await server.close();
    }
  });

  it("AIRA-Evo pre-summarises every evaluated node", async () => {
    const server = await startReplayServer((req) => replies.text(`summary #${req.index}`));
    const ws = await openWorkspace(join(tmp("evo-ws-"), "ws"));
    try {
      const model = createOpenAIModel({ baseURL: server.baseURL, model: "replay-model", maxRetries: 0 });
      const task = writeTinyTask(tmp("evo-task-"));
      const res = await evolve({ task, policy: createTinyPolicy({ bugRate: 0 }), workspace: ws, evaluate: pythonEvaluate, memoryModel: model, config: { harness: "aira-evo", steps: 6, seed: 4, gen0Drafts: 3 } });
      expect(server.requests.length).toBe(res.nodes.length);
    } finally {
      ws.close();
      await server.close();
    }
  });
});
