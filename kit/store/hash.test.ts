import { describe, expect, it } from "vitest";
import { canonicalJson, configHash, stableHash } from "./hash.js";

describe("config hash", () => {
  it.each([
    ["key order does not matter", { a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 }, true],
    ["paths and run names are ignored", { steps: 5, workspace: "/a", runName: "x", outDir: "r1" }, { steps: 5, workspace: "/b", runName: "y", outDir: "r2" }, true],
    ["nested paths are ignored", { sandbox: { timeout: 60, taskDir: "/a" } }, { sandbox: { timeout: 60, taskDir: "/b" } }, true],
    ["a changed value changes the hash", { steps: 5 }, { steps: 6 }, false],
    ["undefined fields equal missing ones", { a: 1, b: undefined }, { a: 1 }, true],
  ])("%s", (_name, a, b, same) => {
    expect(configHash(a) === configHash(b)).toBe(same);
  });

  it("canonical JSON sorts keys and keeps arrays in order", () => {
    expect(canonicalJson({ b: [2, 1], a: null })).toBe('{"a":null,"b":[2,1]}');
    expect(stableHash({ x: 1 })).toMatch(/^[0-9a-f]{16}$/);
  });
});
