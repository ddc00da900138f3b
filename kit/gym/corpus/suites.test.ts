import { describe, expect, it } from "vitest";
import type { Modality, TaskType } from "../types.js";
import { assignSuites, mergeStudies, SuiteConfig, type StudyItem, type SuiteTask } from "./suites.js";

const item = (id: string, nRows: number, signatures: string[], study = id): StudyItem => ({ id, study, nRows, signatures });

describe("mergeStudies", () => {
  it("two shared non-trivial signatures at one row count make one study; one, or another row count, does not", () => {
    const m = mergeStudies([
      item("b", 100, ["x", "y", "z"]),
      item("a", 100, ["x", "y"]),
      item("c", 100, ["x", "q"]),
      item("d", 200, ["x", "y"]),
    ]);
    expect(Object.fromEntries(m)).toEqual({ a: "a", b: "a", c: "c", d: "d" });
  });
  it("closed under both rules (union-find); the manifest's study names the group", () => {
    const m = mergeStudies([
      item("e", 506, ["s1", "s2"], "boston"),
      item("f", 20, ["k"], "boston"),
      item("g", 506, ["s1", "s2", "s3"]),
      item("h", 506, ["s3", "s4"]),
      item("i", 506, ["s4", "s5"]),
    ]);
    // g~e (s1, s2), f~e (same stated study); h shares only s3 with g, i only s4 with h: both stay apart.
    expect(Object.fromEntries(m)).toEqual({ e: "boston", f: "boston", g: "boston", h: "h", i: "i" });
    const chain = mergeStudies([item("p", 9, ["a", "b"]), item("q", 9, ["a", "b", "c", "d"]), item("r", 9, ["c", "d"])]);
    expect(new Set(chain.values())).toEqual(new Set(["p"]));
  });
  it("a signature more than trivialCarriers items share (an index, a flag) does not merge", () => {
    const five = ["h1", "h2", "h3", "h4", "h5"].map((id) => item(id, 50, ["idx", "flag"]));
    expect(new Set(mergeStudies(five).values()).size).toBe(5);
    expect(new Set(mergeStudies(five, { trivialCarriers: 5 }).values())).toEqual(new Set(["h1"]));
  });
  it("does not depend on input order", () => {
    const xs = [item("b", 100, ["x", "y"]), item("a", 100, ["x", "y"], "s"), item("c", 100, ["y", "x"], "r")];
    const one = Object.fromEntries(mergeStudies(xs));
    expect(one).toEqual({ a: "r", b: "r", c: "r" });
    expect(Object.fromEntries(mergeStudies([...xs].reverse()))).toEqual(one);
  });
});

const t = (id: string, study: string, modality: Modality = "tabular", taskType: TaskType = "classification"): SuiteTask => ({
  id, study, modality, taskType,
});

// sha256(study + "\0openmle-corpus-1"), first 8 hex: s1 dfbeb0c7, s2 64cc8789, s3 d2cbfbca, s4 eaab25ac,
// s5 a88fa6f1, s6 62cedd5c, s7 611187fa, s8 6c4a09f4.
describe("assignSuites: a small case by hand", () => {
  const tasks = [
    t("a1", "s1"), t("b1", "s2"), t("b2", "s2"), t("c1", "s3"), t("d1", "s4"), t("p1", "penguins"), t("p2", "penguins"),
    t("e1", "s5", "text"), t("f1", "s6", "text"),
    t("g1", "s7", "image"),
  ];
  const r = assignSuites(tasks, {}, ["penguins", "cars"]);
  it("tabular/classification: 4 studies → round(1) = 1 heldout, the first in hash order (s2, both tasks)", () => {
    expect(r.suites.get("b1")).toBe("heldout");
    expect(r.suites.get("b2")).toBe("heldout");
    for (const id of ["a1", "c1", "d1"]) expect(r.suites.get(id)).toBe("train");
  });
  it("core studies are train-only and not counted in the stratum", () => {
    expect(r.suites.get("p1")).toBe("train");
    expect(r.suites.get("p2")).toBe("train");
    expect(r.coreStudies).toEqual(["penguins"]);
  });
  it("text: 2 studies → 1 heldout (s6 before s5); image: one study stays in train", () => {
    expect(r.suites.get("f1")).toBe("heldout");
    expect(r.suites.get("e1")).toBe("train");
    expect(r.suites.get("g1")).toBe("train");
  });
  it("counts and the heldout minimum reported, not forced", () => {
    expect(r).toMatchObject({ train: 7, heldout: 3, heldoutMinimum: { wanted: 25, met: false }, movedForCoverage: [] });
    expect(assignSuites(tasks, { heldoutMinimum: 3 }).heldoutMinimum.met).toBe(true);
  });
  it("a heldout study carrying a modality train lacks moves to train", () => {
    // tabular/regression: s7 (611187fa) before s8 (6c4a09f4), so s7 is picked; its audio task has no train peer.
    const mixed = [t("x1", "s7", "tabular", "regression"), t("x2", "s7", "tabular", "regression"), t("x3", "s7", "audio", "regression"),
      t("y1", "s8", "tabular", "regression")];
    const m = assignSuites(mixed, {});
    expect(m.movedForCoverage).toEqual(["s7"]);
    expect([...m.suites.values()]).toEqual(["train", "train", "train", "train"]);
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
  const studiesIn = (suite: string) => new Set(big.filter((x) => r.suites.get(x.id) === suite).map((x) => x.study));
  it("disjoint by study: no study has tasks in both suites", () => {
    const train = studiesIn("train");
    expect([...studiesIn("heldout")].filter((s) => train.has(s))).toEqual([]);
    expect(r.suites.size).toBe(big.length);
  });
  it.each([
    [0, 39, 10], // 40 studies, one of them core: round(0.25 · 39) = round(9.75) = 10
    [1, 7, 2], // round(1.75) = 2
    [2, 3, 1], // round(0.75) = 1
    [3, 2, 1], // round(0.5) = 1, half up, and n − 1 = 1 keeps one in train
    [4, 1, 0], // a single study stays in train
  ])("stratum k%i: %i studies → %i heldout", (k, _n, held) => {
    expect([...studiesIn("heldout")].filter((s) => s.startsWith(`k${k}-`)).length).toBe(held);
  });
  it("the core study stays in train; every heldout modality is in train", () => {
    expect(studiesIn("train").has("k0-s0")).toBe(true);
    const mods = (suite: string) => new Set(big.filter((x) => r.suites.get(x.id) === suite).map((x) => x.modality));
    for (const m of mods("heldout")) expect(mods("train").has(m)).toBe(true);
  });
  it("deterministic and independent of input order; the seed changes the draw", () => {
    const shuffled = [...big].reverse().sort((a, b) => (a.id.length % 3) - (b.id.length % 3));
    const again = assignSuites(shuffled, { heldoutMinimum: 1 }, ["k0-s0"]);
    expect(Object.fromEntries([...again.suites].sort())).toEqual(Object.fromEntries([...r.suites].sort()));
    const other = assignSuites(big, { heldoutMinimum: 1, seed: "another" }, ["k0-s0"]);
    expect(Object.fromEntries(other.suites)).not.toEqual(Object.fromEntries(r.suites));
  });
  it("heldoutShare 0 keeps everything in train; the config is strict", () => {
    expect(assignSuites(big, { heldoutShare: 0 }).heldout).toBe(0);
    expect(() => SuiteConfig.parse({ heldoutShare: 0.2, share: 1 })).toThrow(/share/);
  });
});
