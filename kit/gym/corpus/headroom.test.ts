import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildTask } from "../build-task.js";
import { buildBuiltinTask } from "../builtin/build-builtin.js";
import { fmt, HeadroomConfig, headroomVerdict, measureHeadroom, normalisedHeadroom } from "./headroom.js";

describe("normalisedHeadroom", () => {
  it.each([
    // (4 - 10) / (0 - 10) = 0.6
    { metric: "rmse", constant: 10, reference: 4, perfect: 0, hib: false, h: 0.6 },
    // (0.85 - 0.4) / (1 - 0.4) = 0.45 / 0.6 = 0.75
    { metric: "accuracy", constant: 0.4, reference: 0.85, perfect: 1, hib: true, h: 0.75 },
    // (0.52 - 0.5) / (1 - 0.5) = 0.04
    { metric: "roc_auc", constant: 0.5, reference: 0.52, perfect: 1, hib: true, h: 0.04 },
    // priors of 3 balanced classes: ln 3; the reference halves it: (ln3/2 - ln3) / (0 - ln3) = 0.5
    { metric: "log_loss", constant: Math.log(3), reference: Math.log(3) / 2, perfect: 0, hib: false, h: 0.5 },
    // (0.3 - 0) / (1 - 0) = 0.3
    { metric: "r2", constant: 0, reference: 0.3, perfect: 1, hib: true, h: 0.3 },
    // worse than the constant stays negative: (2.5 - 2) / (0 - 2) = -0.25
    { metric: "rmse (worse)", constant: 2, reference: 2.5, perfect: 0, hib: false, h: -0.25 },
    // a constant already perfect leaves nothing to gain
    { metric: "accuracy (perfect constant)", constant: 1, reference: 1, perfect: 1, hib: true, h: 0 },
  ])("$metric: constant $constant, reference $reference -> $h", ({ constant, reference, perfect, hib, h }) => {
    expect(normalisedHeadroom(constant, reference, perfect, hib)).toBeCloseTo(h, 12);
  });
  it("refuses non-finite scores naming them", () => {
    expect(() => normalisedHeadroom(Number.NaN, 1, 1, true)).toThrow(/constant NaN/);
  });
});

describe("headroomVerdict", () => {
  it.each([
    {
      h: { constant: 0.5, reference: 0.52, referenceModel: "tabular-hgb", normalised: 0.04 },
      pass: false,
      reason: "reference tabular-hgb 0.52 vs constant 0.5: 0.04 of the way to perfect (below the 0.05 margin)",
    },
    {
      h: { constant: 10, reference: 4, referenceModel: "tabular-linear", normalised: 0.6 },
      pass: true,
      reason: "reference tabular-linear 4 vs constant 10: 0.6 of the way to perfect (>= the 0.05 margin)",
    },
    {
      h: { constant: 3512.77, reference: 3400.1, referenceModel: "tabular-hgb", normalised: 0.05 },
      pass: true,
      reason: "reference tabular-hgb 3400 vs constant 3513: 0.05 of the way to perfect (>= the 0.05 margin)",
    },
  ])("$reason", ({ h, pass, reason }) => {
    expect(headroomVerdict(h)).toEqual({ pass, reason });
  });
  it("a stricter margin fails what the default passes; the config is strict", () => {
    const h = { constant: 0.5, reference: 0.6, referenceModel: "m", normalised: 0.2 };
    expect(headroomVerdict(h).pass).toBe(true);
    expect(headroomVerdict(h, { minNormalised: 0.25 }).pass).toBe(false);
    expect(HeadroomConfig.parse({})).toEqual({ minNormalised: 0.05, validationShare: 0.25, timeoutMs: 120_000 });
    expect(() => HeadroomConfig.parse({ margin: 0.1 })).toThrow();
  });
  it.each([
    { x: 1 / 3, s: "0.3333" },
    { x: 0.0001234, s: "0.0001234" },
    { x: 2, s: "2" },
  ])("fmt($x) = $s", ({ x, s }) => expect(fmt(x)).toBe(s));
});

// Real runs: built packages, the jailed harness, each package's own metric.py.
describe("measureHeadroom on built packages", () => {
  const dir = mkdtempSync(join(tmpdir(), "gym-headroom-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    { id: "penguins", model: /^tabular-/ }, // accuracy
    { id: "cars", model: /^tabular-/ }, // rmse
    { id: "sentiment", model: /^tfidf-/ }, // roc_auc on text
    { id: "fashion-mnist", model: /^pixels-/ }, // accuracy on images
  ])("$id: the reference beats the constant by more than the margin", async ({ id, model }) => {
    const task = await buildBuiltinTask(id, { outDir: join(dir, id) });
    const h = await measureHeadroom(task);
    const better = task.meta.higherIsBetter ? h.reference > h.constant : h.reference < h.constant;
    expect(better).toBe(true);
    expect(h.referenceModel).toMatch(model);
    expect(h.normalised).toBeGreaterThan(0.05);
    expect(headroomVerdict(h).pass).toBe(true);
  }, 120_000);

  it("a target of pure seeded noise independent of the features has no headroom", async () => {
    // mulberry32: a seeded generator, so the table (and the verdict) is the same on every run.
    let a = 12345;
    const rand = () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const rows = ["x1,x2,x3,x4,y"];
    for (let i = 0; i < 600; i++) rows.push([rand(), rand(), rand(), rand(), rand()].map((v) => v.toFixed(6)).join(","));
    const table = join(dir, "noise.csv");
    writeFileSync(table, `${rows.join("\n")}\n`);
    const task = await buildTask(
      { id: "noise", table, target: "y", metric: "rmse", split: { kind: "random", seed: 1 } },
      { outDir: join(dir, "noise") },
    );
    const h = await measureHeadroom(task);
    expect(h.normalised).toBeLessThan(0.05);
    const v = headroomVerdict(h);
    expect(v.pass).toBe(false);
    expect(v.reason).toMatch(/below the 0\.05 margin/);
  }, 120_000);
});
