// confined-files (issue 59 point 4): the relative-path rules, and reads that stay bounded when a file is swapped for
// a FIFO after the walk or grows past the cap; hash-tree's walks are confined the same way.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkRelative, ConfinedPathError, confinedFiles, readBounded, readChunks } from "./confined-files.js";
import { diffTrees, hashTree } from "./hash-tree.js";

const tmp = mkdtempSync(join(tmpdir(), "confined-files-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const rule = (f: () => unknown) => {
  try {
    f();
    return "accepted";
  } catch (e) {
    return e instanceof ConfinedPathError ? e.rule : `other: ${(e as Error).message}`;
  }
};

describe("checkRelative", () => {
  it.each([
    ["data/a.csv", "data/a.csv"], ["./data//a.csv", "data/a.csv"], [".", "."], ["data/../../x", "parent"], ["..", "parent"],
    ["/etc/passwd", "absolute"], ["", "parent"], ["a\0b", "parent"],
  ])("%j: %s", (rel, want) => {
    const got = (() => {
      try {
        return checkRelative(rel, "t");
      } catch (e) {
        return (e as ConfinedPathError).rule;
      }
    })();
    expect(got).toBe(want);
  });
});

describe("readChunks", () => {
  const dir = join(tmp, "r");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "a.csv"), "abc");
  it("refuses a file swapped for a FIFO after the walk, without blocking on it", () => {
    const [f] = confinedFiles(dir, ["a.csv"], { what: "t" });
    renameSync(join(dir, "a.csv"), join(dir, "old.csv"));
    execFileSync("mkfifo", [join(dir, "a.csv")]);
    expect(rule(() => readChunks(f!, 100, "t", () => undefined))).toBe("not-regular");
    rmSync(join(dir, "a.csv"));
    renameSync(join(dir, "old.csv"), join(dir, "a.csv"));
  });
  it("stops at the cap when a file holds more than the caller allows (a file grown since the walk)", () => {
    const [f] = confinedFiles(dir, ["a.csv"], { what: "t" });
    expect(readBounded(f!, 3, "t").toString()).toBe("abc");
    expect(rule(() => readBounded(f!, 2, "t"))).toBe("too-large");
  });
});

describe("hash-tree walks are confined to their base", () => {
  const base = join(tmp, "h");
  mkdirSync(join(base, "public"), { recursive: true });
  writeFileSync(join(base, "public", "a.csv"), "a\n");
  it("hashes and diffs a plain tree; refuses a link out and a FIFO", () => {
    expect(hashTree(base, ["public"])).toMatch(/^[0-9a-f]{64}$/);
    expect(diffTrees(base, base, ["public"])).toEqual([]);
    symlinkSync("/dev/zero", join(base, "public", "z.csv"));
    expect(rule(() => hashTree(base, ["public"]))).toBe("link-out");
    rmSync(join(base, "public", "z.csv"));
    execFileSync("mkfifo", [join(base, "public", "p.csv")]);
    expect(rule(() => diffTrees(base, base, ["public"]))).toBe("not-regular");
  });
});
