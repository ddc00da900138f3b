// packageHash (issue 28 point 2): the walk reads entry types from the folder listing; the hash is the formula
// of its doc comment, written out here, with links followed as before (a linked folder walked, a broken link left out).
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageHash } from "./package-hash.js";

const tmp = mkdtempSync(join(tmpdir(), "package-hash-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** sha256 over `path \0 bytes \0` of each file in order, first 16 hex digits. */
const expected = (files: readonly [string, string][]) => {
  const h = createHash("sha256");
  for (const [p, text] of files) h.update(`${p}\0${text}\0`);
  return h.digest("hex").slice(0, 16);
};

function makePackage(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "data", "public", "images"), { recursive: true });
  mkdirSync(join(dir, "utils"), { recursive: true });
  mkdirSync(join(tmp, `${name}-shared`), { recursive: true });
  writeFileSync(join(dir, "task.json"), "{}");
  writeFileSync(join(dir, "utils", "metric.py"), "m");
  writeFileSync(join(dir, "data", "public", "a.csv"), "a");
  writeFileSync(join(dir, "data", "public", "B.csv"), "B");
  writeFileSync(join(dir, "data", "public", "images", "1.png"), "1");
  writeFileSync(join(tmp, `${name}-shared`, "x.txt"), "x");
  symlinkSync(join(tmp, `${name}-shared`), join(dir, "data", "private")); // a linked folder: walked
  symlinkSync(join(tmp, "missing"), join(dir, "data", "public", "gone.csv")); // broken: left out
  writeFileSync(join(dir, "description.txt"), "not hashed");
  return dir;
}

describe("packageHash", () => {
  const dir = makePackage("p");
  const files: [string, string][] = [
    ["data/private/x.txt", "x"],
    ["data/public/B.csv", "B"], // code-unit order: "B" < "a" < "images"
    ["data/public/a.csv", "a"],
    ["data/public/images/1.png", "1"],
    ["utils/metric.py", "m"], // the parts in HASHED_PARTS order: data, utils, task.json
    ["task.json", "{}"],
  ];

  it("hashes data/, utils/ and task.json, each in sorted order, following links", () => {
    expect(packageHash(dir)).toBe(expected(files));
    expect(packageHash(dir)).toBe(expected(files)); // the cached answer
  });

  it.each<[string, string, string]>([
    ["a data file", "data/public/a.csv", "AA"],
    ["a file behind a linked folder", "data/private/x.txt", "yy"],
    ["the metric", "utils/metric.py", "m2"],
    // (Another size each time: a same-size rewrite within one clock tick keeps size, mtime and inode.)
  ])("gives a new hash when %s changes", (_, rel, text) => {
    writeFileSync(join(dir, rel), text);
    const now = files.map(([p, t]): [string, string] => [p, p === rel ? text : t]);
    expect(packageHash(dir)).toBe(expected(now));
    writeFileSync(join(dir, rel), files.find(([p]) => p === rel)![1]);
    expect(packageHash(dir)).toBe(expected(files));
  });
});
