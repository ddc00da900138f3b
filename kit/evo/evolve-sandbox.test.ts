import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveTask } from "../gym/index.js";
import { createGrammarPolicy } from "../policy/index.js";
import { probeBwrap, runSandbox } from "../sandbox/index.js";
import { openWorkspace } from "../store/index.js";
import { evolve } from "./evolve.js";

const noBwrap = probeBwrap();
if (noBwrap) process.stderr.write(`SKIP evolve-sandbox tests: bubblewrap cannot run here (${noBwrap}); install bubblewrap (scripts/setup.sh).\n`);

describe.skipIf(!!noBwrap)("evolve end to end: built-in task, grammar policy, real sandbox", () => {
  it("runs OpenMLE-Evo on penguins, and a seed fixes the run (same programs, same records)", async () => {
    const task = await resolveTask("penguins");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "evo-e2e-")), "ws"));
    try {
      const run = async (runId: string) => {
        await evolve({
          task, policy: createGrammarPolicy(), workspace: ws, runId, config: { steps: 3, seed: 7, gen0Drafts: 2, perRunTimeoutS: 120 },
          // The sandbox reuses a stored record only for a program with the same idempotency key (same code).
          evaluate: (job) => runSandbox({ ...job, workspace: ws }),
        });
        return ws.query<{ node_id: string; operator: string; code: string; valid_score: number | null }>(
          "SELECT node_id, operator, code, valid_score FROM nodes WHERE run_id = $r ORDER BY step", { r: runId });
      };
      const a = await run("a");
      const execs = (await ws.query<{ n: number }>("SELECT count(*) AS n FROM executions"))[0]!.n;
      const b = await run("b");
      expect(a).toHaveLength(3);
      expect(a.filter((n) => n.valid_score !== null).length).toBeGreaterThan(0);
      expect(b).toEqual(a);
      // Run b wrote no new execution: every program it wrote was byte-identical to run a's.
      expect((await ws.query<{ n: number }>("SELECT count(*) AS n FROM executions"))[0]!.n).toBe(execs);
      // Where each node's time went: the program's time is its execution's wall time and the parts
      // fit inside the node's; run b reused every record, so it ran and scored nothing.
      const timings = await ws.query<{ run_id: string; node_s: number; policy_s: number; context_s: number; sandbox_s: number; program_s: number; scoring_s: number; store_s: number; wall_s: number; valid_score: number | null }>(
        `SELECT t.*, e.wall_s, n.valid_score FROM node_timings t JOIN nodes n USING (run_id, node_id)
         JOIN executions e ON e.execution_id = n.execution_id ORDER BY t.run_id, n.step`);
      expect(timings).toHaveLength(6);
      for (const t of timings) {
        const parts = t.policy_s + t.context_s + t.sandbox_s + t.program_s + t.scoring_s + t.store_s;
        expect(parts).toBeLessThanOrEqual(t.node_s + 1e-6);
        expect(t.store_s).toBeGreaterThan(0);
        if (t.run_id === "a") {
          expect(t.program_s).toBeCloseTo(t.wall_s, 6);
          if (t.valid_score !== null) expect(t.scoring_s).toBeGreaterThan(0);
        } else {
          expect([t.program_s, t.scoring_s]).toEqual([0, 0]);
        }
      }
      const summary = JSON.parse((await ws.query<{ summary: string }>("SELECT summary FROM runs WHERE run_id = 'a'"))[0]!.summary);
      expect(summary.champion.testScore).toBeGreaterThan(0.5);
    } finally {
      ws.close();
    }
  }, 360_000);
});
