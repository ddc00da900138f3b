import { describe, expect, it } from "vitest";
import { pairedBootstrap } from "./paired-bootstrap.js";

describe("pairedBootstrap", () => {
  it("a constant difference: the interval is that value", () => {
    const r = pairedBootstrap([0.1, 0.1, 0.1])!;
    expect(r).toMatchObject({ n: 3, wins: 3, losses: 0, ties: 0 });
    expect(r.mean).toBeCloseTo(0.1, 12);
    expect(r.lo).toBeCloseTo(0.1, 12);
    expect(r.hi).toBeCloseTo(0.1, 12);
  });

  it("the interval brackets the mean, lies within the extremes, and is reproducible by seed", () => {
    const d = [0.3, -0.1, 0.2, 0.05, 0, 0.15];
    const r = pairedBootstrap(d)!;
    expect(r.mean).toBeCloseTo(0.1, 12); // 0.6 / 6
    expect(r.lo).toBeLessThan(r.mean);
    expect(r.hi).toBeGreaterThan(r.mean);
    expect(r.lo).toBeGreaterThanOrEqual(-0.1);
    expect(r.hi).toBeLessThanOrEqual(0.3);
    expect([r.wins, r.losses, r.ties]).toEqual([4, 1, 1]);
    expect(pairedBootstrap(d)).toEqual(r);
    expect(pairedBootstrap(d, { seed: 2 })!.lo).not.toBe(r.lo);
  });

  it("non-finite differences are left out; none left gives null", () => {
    expect(pairedBootstrap([Number.NaN, 0.2])!.n).toBe(1);
    expect(pairedBootstrap([])).toBeNull();
  });
});
