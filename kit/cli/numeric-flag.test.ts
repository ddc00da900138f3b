import { describe, expect, it } from "vitest";
import { intFlag, numberFlag } from "./numeric-flag.js";
import { UsageError } from "./run-cli.js";

const STEPS = { min: 1, max: 100_000 };
const TIMEOUT = { min: 0.1, max: 2147483, why: "Node timers cannot wait longer" };

describe("intFlag", () => {
  it.each([
    ["1", 1],
    ["100000", 100_000],
    ["1e3", 1000],
    ["+7", 7],
    [" 20 ", 20],
    ["5.0", 5],
  ])("%s reads as %d", (v, want) => {
    expect(intFlag("steps", v, STEPS)).toBe(want);
  });

  it.each([
    ["1e12", "--steps 1e12 is out of range: use an integer from 1 to 100000."],
    ["0", "--steps 0 is out of range: use an integer from 1 to 100000."],
    ["-3", "--steps -3 is out of range: use an integer from 1 to 100000."],
    ["100001", "--steps 100001 is out of range: use an integer from 1 to 100000."],
    ["2.5", "--steps 2.5 is not an integer: use an integer from 1 to 100000."],
    ["abc", "--steps abc is not a number: use an integer from 1 to 100000."],
    ["", '--steps "" is not a number: use an integer from 1 to 100000.'],
    ["0x10", "--steps 0x10 is not a number: use an integer from 1 to 100000."],
    ["Infinity", "--steps Infinity is not a number: use an integer from 1 to 100000."],
    ["NaN", "--steps NaN is not a number: use an integer from 1 to 100000."],
    ["1e400", "--steps 1e400 is not a number: use an integer from 1 to 100000."],
  ])("%s is refused in one line", (v, msg) => {
    let err: unknown;
    try {
      intFlag("steps", v, STEPS);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(msg);
  });
});

describe("numberFlag", () => {
  it.each([
    ["0.1", 0.1],
    ["2147483", 2147483],
    ["2.5", 2.5],
    [".5", 0.5],
  ])("%s reads as %d", (v, want) => {
    expect(numberFlag("timeout", v, TIMEOUT)).toBe(want);
  });

  it("names the range and its reason", () => {
    expect(() => numberFlag("timeout", "1e12", TIMEOUT)).toThrow(
      "--timeout 1e12 is out of range: use a number from 0.1 to 2147483 (Node timers cannot wait longer).",
    );
    expect(() => numberFlag("timeout", "0.05", TIMEOUT)).toThrow(/0\.05 is out of range/);
  });
});
