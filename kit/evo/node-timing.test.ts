import { describe, expect, it } from "vitest";
import type { ExecutionRecord } from "../sandbox/types.js";
import { kitShare, nodeTiming } from "./node-timing.js";

const rec = (wallS: number, scoringS?: number) => ({ wallS, ...(scoringS === undefined ? {} : { scoringS }) }) as unknown as ExecutionRecord;
const m = { nodeS: 10, policyS: 0.2, contextS: 0.1, evaluateS: 9, storeS: 0.05 };

describe("nodeTiming", () => {
  it.each([
    // evaluate 9 s = program + scoring + the sandbox's own steps
    { name: "scored run", r: rec(8.5, 0.3), reused: false, program: 8.5, scoring: 0.3, sandbox: 0.2 },
    { name: "nothing scored", r: rec(8.9), reused: false, program: 8.9, scoring: 0, sandbox: 0.1 },
    { name: "reused record: nothing ran", r: rec(8.5, 0.3), reused: true, program: 0, scoring: 0, sandbox: 9 },
    { name: "clock skew never makes the sandbox negative", r: rec(9.2, 0.1), reused: false, program: 9.2, scoring: 0.1, sandbox: 0 },
  ])("$name", ({ r, reused, program, scoring, sandbox }) => {
    const t = nodeTiming(m, r, reused);
    expect(t.programS).toBe(program);
    expect(t.scoringS).toBe(scoring);
    expect(t.sandboxS).toBeCloseTo(sandbox, 12);
    expect([t.nodeS, t.policyS, t.contextS, t.storeS]).toEqual([10, 0.2, 0.1, 0.05]);
  });
});

describe("kitShare", () => {
  it.each([
    { nodeS: 10, programS: 9.6, share: 0.04 },
    { nodeS: 2, programS: 0, share: 1 },
    { nodeS: 0, programS: 0, share: 0 },
    { nodeS: 1, programS: 1.2, share: 0 },
  ])("node $nodeS s, program $programS s → $share", ({ nodeS, programS, share }) => {
    expect(kitShare({ nodeS, programS })).toBeCloseTo(share, 12);
  });
});
