import { describe, expect, it } from "vitest";
import type { HeldoutDraftRow } from "./heldout-drafts-store.js";
import type { HeldoutRow } from "./heldout-store.js";
import {
  credit, taskFigures, heldoutReport, levelSummary, normalisableTasks, pairedGenerations, pairedReadings, type TaskFigure,
} from "./heldout-summary.js";

const draft = (generation: number, taskId: string, draft: number, normalized: number | null, graded = true): HeldoutDraftRow => ({
  loopId: "L", generation, checkpoint: `c${generation}`, taskId, draft, status: graded ? "success" : "runtime_error",
  validScore: graded ? 1 : null, testScore: graded ? 1 : null, normalized: graded ? normalized : null, sandboxS: 1,
});

describe("held-out measures", () => {
  it.each([
    [true, 0.8, 0.8],
    [true, 1.7, 1.7], // better than the reference counts in full
    [true, -3, 0], // worse than the constant prediction is worth what a failure is
    [false, null, 0],
    [true, null, 0], // graded, but no normalised score
  ])("credit(graded %s, normalised %s) = %s", (graded, n, want) => {
    expect(credit(graded, n)).toBe(want);
  });

  it("per task: valid rate over all drafts, mean credit; tasks without baselines have no score", () => {
    const rows = [draft(0, "a", 0, 0.5), draft(0, "a", 1, -1), draft(0, "a", 2, null, false), draft(0, "a", 3, 1.5), draft(0, "b", 0, 0.2)];
    const f = taskFigures(rows, new Set(["a"]));
    // a: credits 0.5, 0, 0, 1.5 → 2 / 4 = 0.5; graded 3 of 4
    expect(f).toEqual([
      { taskId: "a", n: 4, validRate: 0.75, score: 0.5 },
      { taskId: "b", n: 1, validRate: 1, score: null },
    ]);
    const s = levelSummary(f);
    expect(s.tasks).toBe(2);
    expect(s.validRate).toBeCloseTo(0.875, 12);
    expect(s.score).toMatchObject({ n: 1, mean: 0.5, lo: 0.5, hi: 0.5 });
  });

  it("paired generations: differences over tasks both scored", () => {
    const fig = (taskId: string, score: number | null): TaskFigure => ({ taskId, n: 1, validRate: 1, score });
    const a = [fig("x", 0.6), fig("y", 0.4), fig("z", null), fig("w", 0.9)];
    const b = [fig("x", 0.5), fig("y", 0.1), fig("z", 0.3)];
    const d = pairedGenerations(a, b)!; // x +0.1, y +0.3 (z and w lack a pair)
    expect(d.n).toBe(2);
    expect(d.mean).toBeCloseTo(0.2, 12);
    expect(d.wins).toBe(2);
    expect(d.lo).toBeGreaterThanOrEqual(0.1 - 1e-12);
    expect(d.hi).toBeLessThanOrEqual(0.3 + 1e-12);
  });

  it("normalisable tasks: both baselines, the reference beating the trivial one in the metric's direction", () => {
    const b = { up: { trivial: 0.5, reference: 0.8 }, down: { trivial: 10, reference: 4 }, flat: { trivial: 0.5, reference: 0.5 }, none: { trivial: null, reference: 1 } };
    expect([...normalisableTasks(b, (id) => id !== "down")].sort()).toEqual(["down", "up"]);
    expect([...normalisableTasks(b, () => true)]).toEqual(["up"]);
  });

  it("report: one row per checkpoint, Δ with the previous generation and (from generation 2) with generation 0", () => {
    const rows = [0, 1, 2].flatMap((g) => [draft(g, "a", 0, 0.2 + 0.1 * g), draft(g, "b", 0, 0.4 + 0.2 * g)]);
    const r = heldoutReport(["uniform", "L-g1", "L-g2"], rows, [], new Set(["a", "b"]), () => true);
    expect(r.map((g) => g.checkpoint)).toEqual(["uniform", "L-g1", "L-g2"]);
    expect(r[0]!.vsPrevious).toBeNull();
    expect(r[0]!.vsFirst).toBeNull();
    expect(r[1]!.vsPrevious!.policy.score.tasks!.mean).toBeCloseTo(0.15, 12); // (0.1 + 0.2) / 2
    expect(r[1]!.vsFirst).toBe(r[1]!.vsPrevious); // generation 1's previous is generation 0
    expect(r[2]!.vsPrevious!.policy.score.tasks!.mean).toBeCloseTo(0.15, 12);
    expect(r[2]!.vsFirst!.policy.score.tasks!.mean).toBeCloseTo(0.3, 12);
    expect(r[2]!.search.tasks).toBe(0);
    expect(r[2]!.search.score).toBeNull();
  });

  it("report: win rates pair each generation's graded test scores per task, every task counted", () => {
    const row = (g: number, taskId: string, testScore: number | null) => ({ ...draft(g, taskId, 0, null), testScore });
    // task a (higher is better): 1 → 2 → 3; task b (lower is better): 5 → 4 → failed
    const rows = [row(0, "a", 1), row(1, "a", 2), row(2, "a", 3), row(0, "b", 5), row(1, "b", 4), row(2, "b", null)];
    const r = heldoutReport(["g0", "g1", "g2"], rows, [], new Set(), (t) => t === "a");
    expect(r[1]!.vsPrevious!.policy.win.tasks).toMatchObject({ n: 2, mean: 0.5, wins: 2 }); // a +½, b +½
    expect(r[2]!.vsPrevious!.policy.win.tasks).toMatchObject({ n: 2, mean: 0, wins: 1, losses: 1 }); // a +½, b −½
    expect(r[2]!.vsFirst!.policy.win.tasks).toMatchObject({ n: 2, mean: 0 });
    expect(r[2]!.vsPrevious!.search).toEqual({ win: { tasks: null, withDraws: null }, score: { tasks: null, withDraws: null } });
    expect(r[1]!.vsPrevious!.policy.score.tasks).toBeNull(); // no normalisable task: no score difference
  });

  it("report: both levels read with draws resampled too keep the same means and widen by the draws' noise", () => {
    // two tasks, two draws each; generation 1's draws differ from generation 0's by +0.4 and 0 on a, +0.2 and +0.2 on b
    const rows = [
      draft(0, "a", 0, 0.2), draft(0, "a", 1, 0.2), draft(0, "b", 0, 0.5), draft(0, "b", 1, 0.5),
      draft(1, "a", 0, 0.6), draft(1, "a", 1, 0.2), draft(1, "b", 0, 0.7), draft(1, "b", 1, 0.7),
    ];
    // the same figures as the search level's champions, the draws being seeds 1 and 2
    const search: HeldoutRow[] = rows.map((d) => ({
      loopId: "L", generation: d.generation, checkpoint: d.checkpoint, taskId: d.taskId, seed: d.draft + 1, runId: "r",
      validScore: 1, testScore: 1, validRate: 1, meanDraftScore: null, trivial: 0, reference: 1, normalized: d.normalized,
    }));
    const r = heldoutReport(["g0", "g1"], rows, search, new Set(["a", "b"]), () => true);
    for (const level of ["policy", "search"] as const) {
      const s = r[1]!.vsPrevious![level].score;
      // both task means are +0.2, so tasks-only says [0.2, 0.2]; resampling a's draws gives 0, 0.2 or 0.4
      expect([s.tasks!.lo, s.tasks!.hi]).toEqual([expect.closeTo(0.2, 12), expect.closeTo(0.2, 12)]);
      expect(s.withDraws!.mean).toBeCloseTo(0.2, 12);
      expect(s.withDraws!.lo).toBeCloseTo(0.1, 12); // (0 + 0.2) / 2; a resample at 0 has probability 1/64 < 2.5 %
      expect(s.withDraws!.hi).toBeCloseTo(0.3, 12); // (0.4 + 0.2) / 2
    }
    const w = r[1]!.vsPrevious!.policy.win;
    expect(w.withDraws!.mean).toBe(w.tasks!.mean);
  });

  it("paired readings: the Δ score and the win rate, tasks resampled and with draws resampled, in one call", () => {
    // the previous test's rows; task c (not normalisable) only enters the win rate: 0.9 → 0.8, higher is better
    const rows = [
      draft(0, "a", 0, 0.2), draft(0, "a", 1, 0.2), draft(0, "b", 0, 0.5), draft(0, "b", 1, 0.5),
      draft(1, "a", 0, 0.6), draft(1, "a", 1, 0.2), draft(1, "b", 0, 0.7), draft(1, "b", 1, 0.7),
    ].map((r) => ({ ...r, testScore: r.normalized }));
    const c = (g: number, d: number, testScore: number) => ({ ...draft(g, "c", d, null), testScore });
    const [g0, g1] = [0, 1].map((g) => [...rows.filter((r) => r.generation === g), c(g, 0, 0.9 - 0.1 * g), c(g, 1, 0.9 - 0.1 * g)]);
    const r = pairedReadings(g1!, g0!, new Set(["a", "b"]), () => true);
    expect(r.score.tasks!.n).toBe(2);
    for (const x of [r.score.tasks!.mean, r.score.tasks!.lo, r.score.tasks!.hi]) expect(x).toBeCloseTo(0.2, 12);
    expect(r.score.withDraws!.lo).toBeCloseTo(0.1, 12);
    expect(r.score.withDraws!.hi).toBeCloseTo(0.3, 12);
    // wins per task over its draw pairs: a ½ (one win, one tie) − ½ → 0.25; b +½; c −½ → mean (0.25 + 0.5 − 0.5) / 3
    expect(r.win.tasks!.n).toBe(3);
    expect(r.win.tasks!.mean).toBeCloseTo(0.25 / 3, 12);
    expect(r.win.withDraws!.mean).toBeCloseTo(r.win.tasks!.mean, 12);
  });
});
