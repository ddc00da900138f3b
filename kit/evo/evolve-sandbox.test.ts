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
      const summary = JSON.parse((await ws.query<{ summary: string }>("SELECT summary FROM runs WHERE run_id = 'a'"))[0]!.summary);
      expect(summary.champion.testScore).toBeGreaterThan(0.5);
    } finally {
      ws.close();
    }
  }, 360_000);
});
