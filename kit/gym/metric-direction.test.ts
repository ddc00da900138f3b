import { describe, expect, it } from "vitest";
import { UnknownTaskError } from "./errors.js";
import { metricDirections } from "./metric-direction.js";

describe("metricDirections", () => {
  const tasks = [{ meta: { id: "cars", higherIsBetter: false } }, { meta: { id: "weather", higherIsBetter: true } }];
  it.each([
    { id: "cars", higher: false },
    { id: "weather", higher: true },
  ])("$id → higherIsBetter $higher", ({ id, higher }) => {
    expect(metricDirections(tasks)(id)).toBe(higher);
  });
  it("an id outside the set is an error naming it, not a guessed direction", () => {
    const d = metricDirections(tasks);
    expect(() => d("wine")).toThrow(UnknownTaskError);
    expect(() => d("wine")).toThrow(/task wine is not among the 2 tasks/);
  });
});
