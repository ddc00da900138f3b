import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTinyTask } from "../../evo/test-helpers/tiny-task.js";
import type { Policy } from "../../policy/types.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import { parallelDrafts } from "./parallel-drafts.js";
import { CollectSftConfig } from "./sft-config.js";

/** Scripted outcomes of the drafts `# draft k` (accuracy, no leaderboard); anything else is the trivial baseline. */
const SCRIPT: Record<string, { valid: number | null; test: number | null }> = {
  "# draft 0": { valid: 0.9, test: 0.88 }, // gap 0.02
  "# draft 1": { valid: 0.95, test: 0.7 }, // gap 0.25 > 0.12
  "# draft 2": { valid: 0.48, test: 0.45 }, // below the trivial 0.5 → reward 0
  "# draft 3": { valid: 0.8, test: 0.91 }, // gap 0.11: the best graded draft
};

function setup() {
  const task = writeTinyTask(join(mkdtempSync(join(tmpdir(), "erl-par-")), "task"));
  let k = 0;
  const teacher: Policy = { name: "scripted", propose: async () => ({ plan: `plan ${k}`, code: `# draft ${k++}` }) };
  const jobs: string[] = [];
  const evaluate = async (job: SandboxJob): Promise<ExecutionRecord> => {
    jobs.push(job.code!);
    const s = SCRIPT[job.code!] ?? { valid: null, test: 0.5 };
    return { status: "success", validScore: s.valid, testScore: s.test, wallS: 1 } as unknown as ExecutionRecord;
  };
  return { task, teachers: { primary: teacher }, evaluate, jobs };
}

describe("parallelDrafts with the reference's rules (scripted teacher and sandbox)", () => {
  it("trivial floor on: filter, reward > 0, ranked by the graded score; the reasons counted", async () => {
    const { task, teachers, evaluate, jobs } = setup();
    const cfg = CollectSftConfig.parse({ batchSize: 4, maxAttempts: 4, perTaskCap: 2 });
    const r = await parallelDrafts(task, teachers, cfg, { evaluate });
    // The trivial baseline runs first (no leaderboard), then one batch of four.
    expect(jobs[0]).toContain("sub.to_csv");
    expect(jobs.slice(1)).toEqual(["# draft 0", "# draft 1", "# draft 2", "# draft 3"]);
    // Bounds over distinct graded scores 0.91, 0.88, 0.70, 0.45: W = max(0.45 − 0.25·0.46, 0.5) = 0.5, B = 0.91.
    expect(r.ranking.map((x) => [x.candidate.attempt, x.rank, x.reason])).toEqual([
      [0, 2, "kept"], [1, null, "validation-test-gap"], [2, null, "zero-reward"], [3, 1, "kept"],
    ]);
    expect(r.ranking[0]!.reward).toBeCloseTo(0.38 / 0.41, 12);
    expect(r.examples.map((e) => [e.sourceNode, e.score])).toEqual([["tiny-blobs#3", 0.8], ["tiny-blobs#0", 0.9]]);
    expect(r.stats).toMatchObject({
      attempts: 4, batches: 1, valid: 4, kept: 2, trivialScore: 0.5, worstFrom: "trivial", sandboxS: 5, stopReason: "quota",
      reasons: { kept: 2, "validation-test-gap": 1, "zero-reward": 1 },
    });
  });
  it("trivial floor off: no baseline run; the lowest of K < 16 gets 0.2 and only the cap drops it", async () => {
    const { task, teachers, evaluate, jobs } = setup();
    const cfg = CollectSftConfig.parse({ batchSize: 4, maxAttempts: 4, perTaskCap: 3, trivialFloor: false });
    const r = await parallelDrafts(task, teachers, cfg, { evaluate });
    expect(jobs).toHaveLength(4);
    // W = 0.45 − 0.25·0.46 = 0.335: draft 2 gets (0.45 − 0.335) / 0.575 = 0.2.
    expect(r.ranking[2]!.reward).toBeCloseTo(0.2, 12);
    expect(r.ranking.map((x) => x.reason)).toEqual(["kept", "validation-test-gap", "kept", "kept"]);
    expect(r.stats).toMatchObject({ trivialScore: null, worstFrom: "none", sandboxS: 4, kept: 3 });
  });
  it("the baseline filter off (maxValidationTestGap null): the over-claiming draft 1 is ranked on its test score", async () => {
    const { task, teachers, evaluate } = setup();
    const cfg = CollectSftConfig.parse({ batchSize: 4, maxAttempts: 4, perTaskCap: 4, maxValidationTestGap: null });
    const r = await parallelDrafts(task, teachers, cfg, { evaluate });
    expect(r.ranking.map((x) => [x.candidate.attempt, x.rank, x.reason])).toEqual([
      [0, 2, "kept"], [1, 3, "kept"], [2, null, "zero-reward"], [3, 1, "kept"],
    ]);
  });
  // perTaskCap 1, batches of 2: draft 0 fills the quota after the first batch. With minAttempts 4 the second batch
  // runs too, and the better draft 3 (graded 0.91 > 0.88) takes the one place.
  it.each([
    { minAttempts: 0, attempts: 2, kept: 0, stop: "quota" },
    { minAttempts: 3, attempts: 4, kept: 3, stop: "quota" }, // whole batches: 3 attempts take two batches
    { minAttempts: 8, attempts: 4, kept: 3, stop: "attempts" }, // capped by maxAttempts
  ])("minAttempts $minAttempts: $attempts attempts, draft $kept kept", async ({ minAttempts, attempts, kept, stop }) => {
    const { task, teachers, evaluate } = setup();
    const cfg = CollectSftConfig.parse({ batchSize: 2, maxAttempts: 4, perTaskCap: 1, minAttempts, trivialFloor: false });
    const r = await parallelDrafts(task, teachers, cfg, { evaluate });
    expect(r.stats.attempts).toBe(attempts);
    expect(r.examples.map((e) => e.sourceNode)).toEqual([`tiny-blobs#${kept}`]);
    expect(r.stats.stopReason).toBe(stop);
  });
});
