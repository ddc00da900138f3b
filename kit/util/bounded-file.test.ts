// Small files read whole with a byte limit: a regular file only (a link to one is fine), never more than the limit.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BoundedFileError, readBoundedText } from "./bounded-file.js";

const dir = mkdtempSync(join(tmpdir(), "bounded-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "key"), "abc\n");
writeFileSync(join(dir, "exact"), "x".repeat(100));
writeFileSync(join(dir, "big"), "x".repeat(101));
symlinkSync(join(dir, "key"), join(dir, "link"));
spawnSync("mkfifo", [join(dir, "fifo")]);

describe("readBoundedText", () => {
  it.each([
    ["a small file", "key", "abc\n"],
    ["a file of exactly the limit", "exact", "x".repeat(100)],
    ["a link to a regular file", "link", "abc\n"],
  ])("reads %s", (_, name, text) => {
    expect(readBoundedText(join(dir, name), 100)).toBe(text);
  });

  it.each([
    ["a file one byte over", join(dir, "big"), "too-large", /holds more than 100 bytes/],
    ["/dev/zero", "/dev/zero", "not-a-file", /\/dev\/zero is not a regular file/],
    ["a FIFO nobody writes (at once)", join(dir, "fifo"), "not-a-file", /fifo is not a regular file/],
    ["a folder", dir, "not-a-file", /is not a regular file/],
  ])("refuses %s in one line", (_, path, reason, message) => {
    const e = (() => { try { readBoundedText(path, 100); } catch (err) { return err as BoundedFileError; } })();
    expect(e).toBeInstanceOf(BoundedFileError);
    expect([e!.reason, e!.message.includes("\n")]).toEqual([reason, false]);
    expect(e!.message).toMatch(message);
  });
});
