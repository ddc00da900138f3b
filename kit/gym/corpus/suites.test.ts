import { describe, expect, it } from "vitest";
import type { Modality, TaskType } from "../types.js";
import {
  assignSuites, suiteCounts, SuiteConfig, type SuiteName, type SuiteTask,
} from "./suites.js";

const t = (id: string, study: string, modality: Modality = "tabular", taskType: TaskType = "classification"): SuiteTask => ({
  id, study, modality, taskType,
});
const bySuite = (r: { suites: Map<string, SuiteName> }) => {
  const out: Record<SuiteName, string[]> = { train: [], dev: [], confirm: [] };
  for (const [id, s] of [...r.suites].sort()) out[s].push(id);
  return out;
};

// sha256(study + "\0openmle-corpus-1"), first 8 hex (step 4's order): s1 dfbeb0c7, s2 64cc8789, s3 d2cbfbca,
// s4 eaab25ac, s5 a88fa6f1, s6 62cedd5c, s7 611187fa, s8 6c4a09f4.
// sha256(study + "\0openmle-corpus-1\0confirm") (step 6's order): s2 4dded388, s5 8601f698, s6 d6601921,
// s7 c59fa075, s8 8fca4998.
describe("assignSuites: a small case by hand", () => {
  const tasks = [
    t("a1", "s1"), t("b1", "s2"), t("b2", "s2"), t("c1", "s3"), t("d1", "s4"), t("p1", "penguins"), t("p2", "penguins"),
    t("e1", "s5", "text"), t("f1", "s6", "text"),
    t("g1", "s7", "image"),
  ];
  const r = assignSuites(tasks, {}, ["penguins", "cars"]);
  it("tabular/classification: 4 studies → round(1) = 1 held out, the first in hash order (s2, both tasks)", () => {
    expect(r.suites.get("b1")).not.toBe("train");
    expect(r.suites.get("b2")).toBe(r.suites.get("b1"));
    for (const id of ["a1", "c1", "d1"]) expect(r.suites.get(id)).toBe("train");
  });
  it("core studies are train-only and not counted in the stratum", () => {
    expect([r.suites.get("p1"), r.suites.get("p2")]).toEqual(["train", "train"]);
    expect(r.coreStudies).toEqual(["penguins"]);
  });
  it("text: 2 studies → 1 held out (s6 before s5); image: one study stays in train", () => {
    expect(r.suites.get("f1")).not.toBe("train");
    expect([r.suites.get("e1"), r.suites.get("g1")]).toEqual(["train", "train"]);
  });
  it("a stratum's single held-out study goes to confirm: round(0.5 · 1) = 1 (half up); confirmShare 0 makes it dev", () => {
    expect(bySuite(r)).toEqual({ train: ["a1", "c1", "d1", "e1", "g1", "p1", "p2"], dev: [], confirm: ["b1", "b2", "f1"] });
    expect(bySuite(assignSuites(tasks, { confirmShare: 0 }, ["penguins"])).dev).toEqual(["b1", "b2", "f1"]);
  });
  it("counts per suite, per study and per stratum; the minimums reported, not forced", () => {
    expect(r).toMatchObject({
      tasks: { train: 7, dev: 0, confirm: 3 },
      studies: { train: 6, dev: 0, confirm: 2 },
      heldoutMinimum: { wanted: 25, met: false },
      confirmMinimum: { wanted: 40, met: false },
      pinnedStudies: [],
      movedForCoverage: [],
    });
    expect(r.strata).toEqual([
      { modality: "image", taskType: "classification", train: 1, dev: 0, confirm: 0 },
      { modality: "tabular", taskType: "classification", train: 5, dev: 0, confirm: 2 },
      { modality: "text", taskType: "classification", train: 1, dev: 0, confirm: 1 },
    ]);
    const met = assignSuites(tasks, { heldoutMinimum: 3, confirmMinimum: 3 });
    expect([met.heldoutMinimum.met, met.confirmMinimum.met]).toEqual([true, true]);
  });
  it("a held-out study carrying a modality train lacks moves to train", () => {
    // tabular/regression: s7 (611187fa) before s8 (6c4a09f4), so s7 is picked; its audio task has no train peer.
    const mixed = [t("x1", "s7", "tabular", "regression"), t("x2", "s7", "tabular", "regression"), t("x3", "s7", "audio", "regression"),
      t("y1", "s8", "tabular", "regression")];
    const m = assignSuites(mixed, {});
    expect(m.movedForCoverage).toEqual(["s7"]);
    expect([...m.suites.values()]).toEqual(["train", "train", "train", "train"]);
  });
});

describe("assignSuites: dev and confirm out of the held-out studies, by hand", () => {
  // One tabular/regression stratum of 8 studies, one task each, heldoutShare 0.5: k = min(7, round(4)) = 4.
  // Step 4's order: s7 s6 s2 s8 | s5 s3 s1 s4. Step 6's order of s7 s6 s2 s8: s2 s8 s7 s6.
  const eight = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"].map((s) => t(`t-${s}`, s, "tabular", "regression"));
  const studiesOf = (r: { suites: Map<string, SuiteName> }) =>
    Object.fromEntries(Object.entries(bySuite(r)).map(([k, ids]) => [k, ids.map((id) => id.slice(2))]));
  it.each([
    // confirmShare, confirm studies (round(share · 4), half up, in step 6's order), dev studies
    [0.5, ["s2", "s8"], ["s6", "s7"]], // round(2) = 2
    [0.25, ["s2"], ["s6", "s7", "s8"]], // round(1) = 1
    [0.3, ["s2"], ["s6", "s7", "s8"]], // round(1.2) = 1
    [0.375, ["s2", "s8"], ["s6", "s7"]], // round(1.5) = 2, half up
    [1, ["s2", "s6", "s7", "s8"], []],
    [0, [], ["s2", "s6", "s7", "s8"]],
  ])("confirmShare %s: confirm %j, dev %j; train keeps s1 s3 s4 s5", (confirmShare, confirm, dev) => {
    const r = assignSuites(eight, { heldoutShare: 0.5, confirmShare });
    expect(studiesOf(r)).toEqual({ train: ["s1", "s3", "s4", "s5"], dev, confirm });
  });
  it("a study holding a pinned task stays in train; the draw takes the next study in hash order", () => {
    // s6 pinned: it counts in n = 8 (k = 4) but is skipped: s7 s2 s8 s5 are held out; step 6's order s2 s5 s8 s7.
    const r = assignSuites(eight, { heldoutShare: 0.5, pinnedTrain: ["t-s6", "not-a-task"] });
    expect(studiesOf(r)).toEqual({ train: ["s1", "s3", "s4", "s6"], dev: ["s7", "s8"], confirm: ["s2", "s5"] });
    expect(r.pinnedStudies).toEqual(["s6"]);
  });
  it("a pinned task pins its whole study; pins leaving fewer than k studies draw fewer", () => {
    const two = [t("u1", "s1"), t("u2", "s1"), t("v1", "s2"), t("w1", "s3")]; // s2 before s3 before s1
    expect(bySuite(assignSuites(two, { heldoutShare: 1, pinnedTrain: ["u2", "v1"] }))).toEqual({
      train: ["u1", "u2", "v1"], dev: [], confirm: ["w1"],
    }); // n = 3, k = min(2, 3) = 2, but only s3 is drawable
  });
  it.each([
    [1, 1, 0], // a stratum of one study stays in train, whatever the share
    [2, 1, 1], // k = min(1, 2) = 1: one is kept in train
    [3, 1, 2],
  ])("heldoutShare 1, %i studies: %i in train, %i held out", (n, train, held) => {
    const r = assignSuites(eight.slice(0, n), { heldoutShare: 1 });
    expect([r.studies.train, r.studies.dev + r.studies.confirm]).toEqual([train, held]);
  });
});

describe("suiteCounts", () => {
  it("counts each task by its own modality and type, strata in key order", () => {
    const c = suiteCounts([
      { id: "a", modality: "text", taskType: "regression", suite: "dev" },
      { id: "b", modality: "tabular", taskType: "regression", suite: "confirm" },
      { id: "c", modality: "text", taskType: "regression", suite: "dev" },
      { id: "d", modality: "tabular", taskType: "regression", suite: "train" },
    ]);
    expect(c.tasks).toEqual({ train: 1, dev: 2, confirm: 1 });
    expect(c.strata).toEqual([
      { modality: "tabular", taskType: "regression", train: 1, dev: 0, confirm: 1 },
      { modality: "text", taskType: "regression", train: 0, dev: 2, confirm: 0 },
    ]);
  });
});

describe("assignSuites: properties", () => {
  const MODS: Modality[] = ["tabular", "text", "image", "time_series"];
  const big: SuiteTask[] = [];
  // Stratum sizes 40, 7, 3, 2, 1 studies, 1–3 tasks per study.
  [40, 7, 3, 2, 1].forEach((n, k) => {
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i % 3; j++) big.push(t(`k${k}-s${i}-t${j}`, `k${k}-s${i}`, MODS[k % 4]!, k === 4 ? "regression" : "classification"));
  });
  const r = assignSuites(big, { heldoutMinimum: 1 }, ["k0-s0"]);
  const studiesIn = (suite: string, a = r) => new Set(big.filter((x) => a.suites.get(x.id) === suite).map((x) => x.study));
  it("disjoint by study: no study has tasks in two suites", () => {
    const [train, dev, confirm] = [studiesIn("train"), studiesIn("dev"), studiesIn("confirm")];
    expect(train.size + dev.size + confirm.size).toBe(new Set(big.map((x) => x.study)).size);
    expect(r.suites.size).toBe(big.length);
  });
  it.each([
    [0, 39, 10, 5], // 40 studies, one of them core: round(0.25 · 39) = round(9.75) = 10; confirm round(5) = 5
    [1, 7, 2, 1], // round(1.75) = 2; confirm round(1) = 1
    [2, 3, 1, 1], // round(0.75) = 1; confirm round(0.5) = 1, half up
    [3, 2, 1, 1], // round(0.5) = 1, half up, and n − 1 = 1 keeps one in train
    [4, 1, 0, 0], // a single study stays in train
  ])("stratum k%i: %i studies → %i held out, %i of them confirm", (k, _n, held, confirm) => {
    const count = (suite: string) => [...studiesIn(suite)].filter((s) => s.startsWith(`k${k}-`)).length;
    expect([count("dev") + count("confirm"), count("confirm")]).toEqual([held, confirm]);
  });
  it("the held-out pool (dev + confirm) does not depend on confirmShare: the pre-issue-60 heldout suite", () => {
    const pool = (confirmShare: number) => {
      const a = assignSuites(big, { confirmShare }, ["k0-s0"]);
      return [...studiesIn("train", a)].sort();
    };
    expect(pool(0)).toEqual(pool(0.5));
    expect(pool(1)).toEqual(pool(0.5));
  });
  it("the core study stays in train; every held-out modality is in train", () => {
    expect(studiesIn("train").has("k0-s0")).toBe(true);
    const mods = (suite: string) => new Set(big.filter((x) => r.suites.get(x.id) === suite).map((x) => x.modality));
    for (const m of [...mods("dev"), ...mods("confirm")]) expect(mods("train").has(m)).toBe(true);
  });
  it("deterministic and independent of input order; the seed changes the draw", () => {
    const shuffled = [...big].reverse().sort((a, b) => (a.id.length % 3) - (b.id.length % 3));
    const pins = { heldoutMinimum: 1, pinnedTrain: ["k1-s3-t0", "k0-s7-t1"] };
    const again = assignSuites(shuffled, pins, ["k0-s0"]);
    expect(Object.fromEntries([...again.suites].sort())).toEqual(
      Object.fromEntries([...assignSuites(big, pins, ["k0-s0"]).suites].sort()),
    );
    const other = assignSuites(big, { heldoutMinimum: 1, seed: "another" }, ["k0-s0"]);
    expect(Object.fromEntries(other.suites)).not.toEqual(Object.fromEntries(r.suites));
  });
  it("heldoutShare 0 keeps everything in train; the config is strict", () => {
    expect(assignSuites(big, { heldoutShare: 0 }).tasks).toMatchObject({ dev: 0, confirm: 0 });
    expect(() => SuiteConfig.parse({ heldoutShare: 0.2, share: 1 })).toThrow(/share/);
  });
});
