// packageHash (issue 28 point 2, issue 59 point 4): the walk reads entry types from the folder listing; the hash is
// the formula of its doc comment, written out here, with links followed inside the package (a linked folder walked,
// a broken link left out); a link out, a FIFO, a device or a tree past the limits is refused without being read.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfinedPathError, type ConfinedRule } from "./confined-files.js";
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
  mkdirSync(join(dir, "shared"), { recursive: true });
  writeFileSync(join(dir, "task.json"), "{}");
  writeFileSync(join(dir, "utils", "metric.py"), "m");
  writeFileSync(join(dir, "data", "public", "a.csv"), "a");
  writeFileSync(join(dir, "data", "public", "B.csv"), "B");
  writeFileSync(join(dir, "data", "public", "images", "1.png"), "1");
  writeFileSync(join(dir, "shared", "x.txt"), "x");
  symlinkSync(join(dir, "shared"), join(dir, "data", "private")); // a linked folder inside the package: walked
  symlinkSync("../../utils/metric.py", join(dir, "data", "public", "m.py")); // a relative link inside: followed
  symlinkSync(join(tmp, "missing"), join(dir, "data", "public", "gone.csv")); // broken: left out
  writeFileSync(join(dir, "description.txt"), "not hashed");
  return dir;
}

describe("packageHash", () => {
  const dir = makePackage("p");
  const files: [string, string][] = [
    ["data/private/x.txt", "x"],
    ["data/public/B.csv", "B"], // code-unit order: "B" < "a" < "images" < "m.py"
    ["data/public/a.csv", "a"],
    ["data/public/images/1.png", "1"],
    ["data/public/m.py", "m"],
    ["utils/metric.py", "m"], // the parts in HASHED_PARTS order: data, utils, task.json
    ["task.json", "{}"],
  ];

  it("hashes data/, utils/ and task.json, each in sorted order, following links inside the package", () => {
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
    const now = files.map(([p, t]): [string, string] => [p, p === rel || (rel.startsWith("utils") && p.endsWith("m.py")) ? text : t]);
    expect(packageHash(dir)).toBe(expected(now));
    writeFileSync(join(dir, rel), files.find(([p]) => p === rel)![1]);
    expect(packageHash(dir)).toBe(expected(files));
  });
});

describe("packageHash refuses what it must not read, at once and in one line", () => {
  const dir = makePackage("hostile");
  const at = (rel: string) => join(dir, rel);
  const cases: [string, () => void, ConfinedRule, RegExp, object?][] = [
    ["a FIFO in data/public", () => execFileSync("mkfifo", [at("data/public/pipe")]), "not-regular", /data\/public\/pipe is a FIFO/],
    ["a link to /dev/zero", () => symlinkSync("/dev/zero", at("data/public/zero.csv")), "link-out", /zero\.csv is a link to \/dev\/zero, outside/],
    ["a link to a file outside", () => symlinkSync("/etc/passwd", at("utils/p.py")), "link-out", /utils\/p\.py is a link to \/etc\/passwd/],
    ["data/ itself a link out", () => { rmSync(at("data"), { recursive: true }); symlinkSync(join(tmp, "p", "data"), at("data")); }, "link-out", /^package \S+: data is a link to/],
    ["a link to a folder above it", () => symlinkSync("..", at("data/public/up")), "link-loop", /up is a link to a folder above it/],
    ["a link to itself", () => symlinkSync("self", at("data/public/self")), "link-loop", /self is a link that never resolves/],
    ["more bytes than maxBytes", () => writeFileSync(at("data/public/big.csv"), "x".repeat(100)), "too-large", /big\.csv brings it past 64 bytes/, { maxBytes: 64 }],
    ["more files than maxFiles", () => undefined, "too-many", /is past 3 files/, { maxFiles: 3 }],
  ];
  it.each(cases)("%s", (_, make, rule, message, limits) => {
    rmSync(dir, { recursive: true, force: true });
    makePackage("hostile");
    make();
    const t = performance.now();
    const e = (() => {
      try {
        packageHash(dir, limits);
      } catch (err) {
        return err;
      }
    })();
    expect(performance.now() - t).toBeLessThan(2000);
    expect(e).toBeInstanceOf(ConfinedPathError);
    expect((e as ConfinedPathError).rule).toBe(rule);
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain("\n");
    if (rule === "not-regular") unlinkSync(at("data/public/pipe"));
  });
});
