import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evolve } from "../../evo/index.js";
import { resolveTask } from "../../gym/index.js";
import { createGrammarPolicy, defaultGrammarParams, parseReply } from "../../policy/index.js";
import { probeBwrap, runSandbox } from "../../sandbox/index.js";
import { openWorkspace } from "../../store/index.js";
import {
  collectSft, datasetInfo, exportDataset, loadCheckpoint, loadDataset, sftTrain, DatasetExistsError, datasetArrow,
} from "../index.js";

const noBwrap = probeBwrap();
if (noBwrap) process.stderr.write(`SKIP collectSft sandbox tests: bubblewrap cannot run here (${noBwrap}); install bubblewrap (scripts/setup.sh).\n`);

describe.skipIf(!!noBwrap)("collectSft end to end: penguins, grammar teacher, real sandbox", () => {
  it("collects parallel drafts and evolution segments, stores, exports, refuses the name again, and SFT raises the likelihood", async () => {
    const task = await resolveTask("penguins");
    const dir = mkdtempSync(join(tmpdir(), "erl-e2e-"));
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      const evaluate = (job: Parameters<typeof runSandbox>[0]) => runSandbox({ ...job, workspace: ws });
      await evolve({ task, workspace: ws, runId: "evo-1", config: { steps: 2, seed: 3, gen0Drafts: 2, perRunTimeoutS: 120 }, evaluate });
      const events: string[] = [];
      const res = await collectSft({
        workspace: ws, dataset: "d1", tasks: [task], teachers: { primary: createGrammarPolicy() }, runs: "all",
        config: { batchSize: 2, maxAttempts: 2, perTaskCap: 2, concurrency: 2, perRunTimeoutS: 120, seed: 1 }, evaluate,
        onEvent: (e) => events.push(e.type),
      });
      // Parallel path: at most the attempt budget, stopped by quota or attempts, the count recorded.
      const p = res.parallel[0]!;
      expect(p.attempts).toBe(2);
      expect(p.batches).toBe(1);
      expect(p.stopReason === "quota" ? p.kept === 2 : p.kept < 2).toBe(true);
      // Evolution path: every node of the run is in some segment; accepted segments produced examples.
      expect(res.segments.length).toBeGreaterThan(0);
      expect(res.segments.every((s) => s.thresholdKind === "quantile")).toBe(true);
      expect(res.judge).toBe("skipped");
      expect(events).toContain("stored");
      expect(res.examples.length).toBeGreaterThan(0);
      expect(res.composition.reduce((s, r) => s + r.total, 0)).toBe(res.examples.length);
      // The example is the LLM policy's prompt + the program as the reply.
      const ex = res.examples[0]!;
      expect(ex.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
      expect(parseReply(ex.messages[2]!.content).code).toBe(ex.program.replace(/\s+$/, "") + "\n");
      expect(ex.tokens).toBeGreaterThan(100);

      // Stored, read back, exported.
      const stored = await loadDataset(ws, "d1");
      expect(stored.map((e) => e.program)).toEqual(res.examples.map((e) => e.program));
      expect(stored[0]!.judge).toBe("skipped");
      expect(stored[0]!.configHash).toBe(res.configHash);
      // How it was made, read back: the config and the parallel path's per-task counts (what a replay needs).
      const info = await datasetInfo(ws, "d1");
      expect(info).toMatchObject({ configHash: res.configHash, judge: "skipped", config: { seed: 1, maxAttempts: 2 } });
      expect(info!.parallel).toEqual(JSON.parse(JSON.stringify(res.parallel)));
      expect(await datasetInfo(ws, "no-such")).toBeNull();
      const jsonl = await exportDataset(ws, "d1", join(dir, "d1.jsonl"));
      const lines = readFileSync(jsonl.file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines).toHaveLength(stored.length);
      expect(lines[0]).toEqual({ messages: stored[0]!.messages });
      const pq = await exportDataset(ws, "d1", join(dir, "d1.parquet"));
      const back = await ws.query<{ operator: string; path: string; teacher: string }>(`SELECT operator, path, teacher FROM read_parquet('${pq.file}') ORDER BY example_id`);
      expect(back.map((r) => r.operator)).toEqual(stored.map((e) => e.operator));
      expect(back[0]!.teacher).toBe("grammar");
      expect((await datasetArrow(ws, "d1")).numRows).toBe(stored.length);

      // The name is taken: refused before any work, nothing changed.
      const err = await collectSft({ workspace: ws, dataset: "d1", runs: "all" }).catch((e) => e);
      expect(err).toBeInstanceOf(DatasetExistsError);
      expect(err.message).toMatch(/--replace/);
      expect((await loadDataset(ws, "d1")).length).toBe(stored.length);

      // SFT of the grammar policy increases the likelihood of the kept programs.
      const grammar = stored.filter((e) => e.choices).length;
      expect(grammar).toBeGreaterThan(0);
      const { checkpoint, metrics } = await sftTrain(ws, { dataset: "d1", from: "default", to: "sft-1", config: { heldOut: 0, epochs: 10, lr: 1 } });
      expect(metrics.trainLogLikAfter).toBeGreaterThan(metrics.trainLogLikBefore);
      expect(checkpoint).toMatchObject({ name: "sft-1", parent: "default", source: "sft", dataset: "d1" });
      expect((await loadCheckpoint(ws, "sft-1")).params).not.toEqual(defaultGrammarParams());
    } finally {
      ws.close();
    }
  }, 300_000);
});
