import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManifestError } from "./manifest.js";
import { loadPinnedTrain } from "./pinned-train.js";

let dir = "";
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
const beside = (text: string | null) => {
  dir = mkdtempSync(join(tmpdir(), "pinned-"));
  if (text !== null) writeFileSync(join(dir, "pinned-train.json"), text);
  return join(dir, "candidates.json");
};

describe("loadPinnedTrain", () => {
  it.each([
    ["no file: nothing pinned", null, []],
    ["one set", '{"note":"n","sets":[{"source":"s","tasks":["b","a"]}]}', ["a", "b"]],
    ["sets joined, duplicates once", '{"note":"n","sets":[{"source":"s","tasks":["b"]},{"source":"t","tasks":["b","c"]}]}', ["b", "c"]],
  ])("%s", (_, text, want) => {
    expect(loadPinnedTrain(beside(text))).toEqual(want);
  });
  it.each([
    ["an unknown key", '{"note":"n","sets":[],"extra":1}'],
    ["a set without its source", '{"note":"n","sets":[{"tasks":["a"]}]}'],
  ])("refuses %s with ManifestError saying the shape", (_, text) => {
    expect(() => loadPinnedTrain(beside(text))).toThrow(ManifestError);
    expect(() => loadPinnedTrain(beside(text))).toThrow(/"sets": \[\{"source"/);
  });
  it("the project's file pins the recorded loops' 60 training tasks", () => {
    expect(loadPinnedTrain()).toHaveLength(60);
  });
});
