import { describe, expect, it } from "vitest";
import { entropicAdvantage } from "./entropic-advantage.js";
import { groupRewards } from "./group-rewards.js";

describe("groupRewards: bounds → gap penalty → parent bonus / copies → hack reward → advantages", () => {
  it("an RMSE group by hand (gap penalty on)", () => {
    // lower is better: signed = −test. Group tests 2, 3, 4, failed, flagged (its test 1 is ignored).
    const out = groupRewards([
      { testScore: 2, validScore: 2, hack: null },
      { testScore: 3, validScore: 2, hack: null },
      { testScore: 4, validScore: 4, hack: null },
      { testScore: null, validScore: null, hack: null },
      { testScore: 1, validScore: 1, hack: "sample_permutation" },
    ], [], { higherIsBetter: false, leaderboardRange: 10, gap: { enabled: true } });
    // finite signed −2, −3, −4: B = −2, anchor −4, W = −4 − 0.25·2 = −4.5; r = 1, 0.6, 0.2, 0
    expect(out.best).toBe(-2);
    expect(out.worst).toBe(-4.5);
    // program 2: g = |3 − 2| / 10 = 0.1 → factor 1 − 0.05·(0.1/0.12)
    const f = 1 - 0.05 * (0.1 / 0.12);
    expect(out.gap).toEqual([0, 0.1, 0, null, null]);
    [1, 0.6 * f, 0.2, 0, -0.5].forEach((r, i) => expect(out.rewards[i]).toBeCloseTo(r, 12));
    const ent = entropicAdvantage(out.rewards);
    expect(out.beta).toBe(ent.beta);
    expect(out.advantages).toEqual(ent.advantages);
    expect(out.advantages[0]).toBeGreaterThan(0);
    expect(out.advantages[4]).toBeLessThan(out.advantages[3]!);
    // a Draft group: no parent reward, no bonus, no copies
    expect(out.parentReward).toBeNull();
    expect(out.bonus).toEqual([0, 0, 0, 0, 0]);
    expect(out.copiesParent).toEqual([false, false, false, false, false]);
  });

  it("the gap penalty is off by default: the gap is measured, rewards are the bounds'", () => {
    const out = groupRewards([{ testScore: 2, validScore: 2, hack: null }, { testScore: 3, validScore: 2, hack: null }, { testScore: 4, validScore: 4, hack: null }], [], { higherIsBetter: false, leaderboardRange: 10 });
    expect(out.gap).toEqual([0, 0.1, 0]);
    expect(out.gapFactor).toEqual([1, 1, 1]);
    [1, 0.6, 0.2].forEach((r, i) => expect(out.rewards[i]).toBeCloseTo(r, 12));
  });

  // Accuracy, no history. Group tests 0.9, 0.8, 0.6 and a copy of the parent (test 0.7): finite 0.9, 0.8, 0.7, 0.6 →
  // B = 0.9, anchor 0.6, W = 0.6 − 0.25·0.3 = 0.525 (B − W = 3/8): r = 1, 11/15, 1/5, 7/15.
  const PARENT = "import x\nprint(1)\n";
  const group = [
    { testScore: 0.9, validScore: null, hack: null, code: "a" },
    { testScore: 0.8, validScore: null, hack: null, code: "b" },
    { testScore: 0.6, validScore: null, hack: null, code: "c" },
    { testScore: 0.7, validScore: null, hack: null, code: "import x\r\nprint(1)   \r\n" },
  ];
  it.each([
    // improve, parent 0.7 → r_parent = 7/15; 1 + 0.5·8/15 = 19/15; 11/15 + 0.5·4/15 = 13/15; 1/5 < 7/15: no bonus; copy → 0
    { name: "improve", parents: [{ code: PARENT, testScore: 0.7 }], opts: {}, rp: 7 / 15, bonus: [4 / 15, 2 / 15, 0, 0], rewards: [19 / 15, 13 / 15, 0.2, 0], copies: [false, false, false, true] },
    // crossover, parents 0.6 and 0.8 → the better: r_parent = 11/15; 1 + 0.5·4/15 = 17/15; the copy is no copy of these
    { name: "crossover: the better parent", parents: [{ code: "p", testScore: 0.6 }, { code: "q", testScore: 0.8 }], opts: {}, rp: 11 / 15, bonus: [2 / 15, 0, 0, 0], rewards: [17 / 15, 11 / 15, 0.2, 7 / 15], copies: [false, false, false, false] },
    // debug of a failed parent: r_parent = 0 → r · 1.5; its copy still gets 0
    { name: "parent without a graded score", parents: [{ code: PARENT, testScore: null }], opts: {}, rp: 0, bonus: [0.5, 11 / 30, 0.1, 0], rewards: [1.5, 1.1, 0.3, 0], copies: [false, false, false, true] },
    // the earlier kit: no bonus, copies rewarded like any program
    { name: "bonus 0, copies kept", parents: [{ code: PARENT, testScore: 0.7 }], opts: { parentBonus: { coefficient: 0, zeroCopies: false } }, rp: 7 / 15, bonus: [0, 0, 0, 0], rewards: [1, 11 / 15, 0.2, 7 / 15], copies: [false, false, false, false] },
    // coefficient 1: 1 + 8/15
    { name: "coefficient 1", parents: [{ code: PARENT, testScore: 0.7 }], opts: { parentBonus: { coefficient: 1 } }, rp: 7 / 15, bonus: [8 / 15, 4 / 15, 0, 0], rewards: [23 / 15, 1, 0.2, 0], copies: [false, false, false, true] },
  ])("parent bonus and copies: $name", ({ parents, opts, rp, bonus, rewards, copies }) => {
    const out = groupRewards(group, [], { higherIsBetter: true, metricRange: 1, ...opts }, parents);
    expect(out.best).toBeCloseTo(0.9, 12);
    expect(out.worst).toBeCloseTo(0.525, 12);
    expect(out.parentReward).toBeCloseTo(rp, 12);
    bonus.forEach((b, i) => expect(out.bonus[i]).toBeCloseTo(b, 12));
    rewards.forEach((r, i) => expect(out.rewards[i]).toBeCloseTo(r, 12));
    expect(out.copiesParent).toEqual(copies);
    expect(out.advantages).toEqual(entropicAdvantage(out.rewards).advantages);
  });

  it("the bonus comes after the gap factor; a flagged copy gets the hack reward, a flagged program no bonus", () => {
    // rmse, history −2, −4 (tests 2, 4): group tests 2 (valid 2.6), 3, flagged; W = −4.5, B = −2 (B − W = 2.5)
    // parent test 3 → r_parent = 1.5/2.5 = 0.6; program 0: r = 1, g = 0.6/10 = 0.06 → f = 1 − 0.05·0.5 = 0.975;
    // 0.975 + 0.5·(0.975 − 0.6) = 1.1625; program 1: r = 0.6 → no bonus; program 2 copies the parent but is flagged → −0.5
    const out = groupRewards([
      { testScore: 2, validScore: 2.6, hack: null, code: "a" },
      { testScore: 3, validScore: null, hack: null, code: "b" },
      { testScore: 3, validScore: null, hack: "judge", code: "P" },
    ], [-2, -4], { higherIsBetter: false, leaderboardRange: 10, gap: { enabled: true } }, [{ code: "P", testScore: 3 }]);
    expect(out.worst).toBeCloseTo(-4.5, 12);
    expect(out.parentReward).toBeCloseTo(0.6, 12);
    expect(out.gapFactor[0]).toBeCloseTo(0.975, 12);
    [1.1625, 0.6, -0.5].forEach((r, i) => expect(out.rewards[i]).toBeCloseTo(r, 12));
    expect(out.bonus).toEqual([expect.closeTo(0.1875, 12), 0, 0]);
    expect(out.copiesParent).toEqual([false, false, true]);
  });

  it("an all-failed group: rewards 0, advantages 0", () => {
    const out = groupRewards([{ testScore: null, validScore: null, hack: null }, { testScore: null, validScore: 0.5, hack: null }], [0.7], { higherIsBetter: true });
    expect(out.rewards).toEqual([0, 0]);
    expect(out.advantages).toEqual([0, 0]);
    expect(out.grpoAdvantages).toEqual([0, 0]);
  });
});
