import { describe, expect, it } from "vitest";
import { entropicAdvantage } from "./entropic-advantage.js";
import { groupRewards } from "./group-rewards.js";

describe("groupRewards: bounds → gap penalty → hack reward → advantages", () => {
  it("an RMSE group by hand", () => {
    // lower is better: signed = −test. Group tests 2, 3, 4, failed, flagged (its test 1 is ignored).
    const out = groupRewards([
      { testScore: 2, validScore: 2, hack: null },
      { testScore: 3, validScore: 2, hack: null },
      { testScore: 4, validScore: 4, hack: null },
      { testScore: null, validScore: null, hack: null },
      { testScore: 1, validScore: 1, hack: "sample_permutation" },
    ], [], { higherIsBetter: false, leaderboardRange: 10 });
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
  });

  it("an all-failed group: rewards 0, advantages 0", () => {
    const out = groupRewards([{ testScore: null, validScore: null, hack: null }, { testScore: null, validScore: 0.5, hack: null }], [0.7], { higherIsBetter: true });
    expect(out.rewards).toEqual([0, 0]);
    expect(out.advantages).toEqual([0, 0]);
    expect(out.grpoAdvantages).toEqual([0, 0]);
  });
});
