import { describe, expect, it } from "vitest";
import { submissionHackCheck } from "./submission-hack-check.js";

const sample = "id,y\n1,0.1\n2,0.5\n3,0.9\n";
describe("submissionHackCheck", () => {
  it.each([
    { name: "the sample itself", sub: sample, flag: "sample_submission" },
    { name: "sample with other line endings / spaces", sub: "id,y\r\n1, 0.1\r\n2,0.5\r\n3,0.9", flag: "sample_submission" },
    { name: "predictions shuffled against the ids", sub: "id,y\n1,0.9\n2,0.1\n3,0.5\n", flag: "sample_permutation" },
    { name: "rows shuffled", sub: "id,y\n3,0.9\n1,0.1\n2,0.5\n", flag: "sample_permutation" },
    { name: "constant predictions", sub: "id,y\n1,A\n2,A\n3,A\n", flag: "constant_predictions" },
    { name: "genuine predictions", sub: "id,y\n1,0.2\n2,0.4\n3,0.7\n", flag: null },
    { name: "one row is never constant", sub: "id,y\n1,0.2\n", flag: null },
    { name: "empty file", sub: "", flag: null },
  ])("$name → $flag", ({ sub, flag }) => {
    expect(submissionHackCheck(sub, sample)).toBe(flag);
  });

  it("a constant sample submission: copying it is flagged as the sample, not as a permutation", () => {
    const constSample = "id,label\n1,Adelie\n2,Adelie\n";
    expect(submissionHackCheck(constSample, constSample)).toBe("sample_submission");
    expect(submissionHackCheck("id,label\n1,Gentoo\n2,Adelie\n", constSample)).toBe(null);
  });
});
