import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileFlag, fileProblem, readFileFlag } from "./path-flag.js";
import { UsageError } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "openmle-path-flag-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "main.py");
writeFileSync(file, "print(1)\n");
const folder = join(dir, "code");
mkdirSync(folder);
const fifo = join(dir, "fifo");
execFileSync("mkfifo", [fifo]);
const big = join(dir, "big.py");
writeFileSync(big, "x".repeat(2048));

describe("fileProblem", () => {
  it.each([
    ["a regular file", file, 1 << 20, null],
    ["a missing path", join(dir, "nope.py"), 1 << 20, "no such file"],
    ["a path through a file", join(file, "x"), 1 << 20, "no such file"],
    ["a folder", folder, 1 << 20, "a folder, not a file"],
    ["a FIFO (a read would block)", fifo, 1 << 20, "not a regular file"],
    ["a file over the cap", big, 1024, "too large (1 MiB; at most 1 MiB)"],
  ])("%s", (_, path, max, want) => {
    expect(fileProblem(path, max)).toBe(want);
  });
});

describe("readFileFlag and fileFlag", () => {
  it("read a file, and refuse a folder in one line naming the flag", () => {
    expect(readFileFlag("--code", file, "Pass a Python file.")).toBe("print(1)\n");
    expect(fileFlag("--submission", file, "Pass a CSV.")).toBe(file);
    expect(() => readFileFlag("--code", folder, "Pass the path of a Python file.")).toThrow(
      new UsageError(`--code ${folder}: a folder, not a file. Pass the path of a Python file.`),
    );
    expect(() => fileFlag("submission", join(dir, "x.csv"), "Pass a CSV.")).toThrow(
      `submission ${join(dir, "x.csv")}: no such file. Pass a CSV.`,
    );
  });
});
