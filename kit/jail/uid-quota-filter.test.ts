// The uid-quota seccomp filter (issue 59): its instructions, decoded, for each architecture.
import { describe, expect, it } from "vitest";
import { uidQuotaFilter } from "./uid-quota-filter.js";

/** [code, jt, jf, k] per instruction, from the little-endian sock_filter bytes. */
function decode(buf: Buffer): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < buf.length; i += 8)
    out.push([buf.readUInt16LE(i), buf.readUInt8(i + 2), buf.readUInt8(i + 3), buf.readUInt32LE(i + 4)]);
  return out;
}

const [LD, JEQ, RET, ALLOW, EPERM] = [0x20, 0x15, 0x06, 0x7fff0000, 0x50001];
const refuse = (nr: number) => [[JEQ, 0, 1, nr], [RET, 0, 0, EPERM]];

describe("uidQuotaFilter", () => {
  it.each([
    [
      "x64",
      [
        // x86-64: add_key request_key keyctl inotify_init inotify_init1 mq_open, then the same with the x32 bit
        [[LD, 0, 0, 4], [JEQ, 0, 26, 0xc000003e], [LD, 0, 0, 0]],
        ...[248, 249, 250, 253, 294, 240].map(refuse),
        ...[0x400000f8, 0x400000f9, 0x400000fa, 0x400000fd, 0x40000126, 0x400000f0].map(refuse),
        [[RET, 0, 0, ALLOW], [LD, 0, 0, 4], [JEQ, 0, 14, 0x40000003], [LD, 0, 0, 0]],
        ...[286, 287, 288, 291, 332, 277].map(refuse), // i386
        [[RET, 0, 0, ALLOW], [RET, 0, 0, ALLOW]],
      ],
    ],
    [
      "arm64",
      [
        [[LD, 0, 0, 4], [JEQ, 0, 12, 0xc00000b7], [LD, 0, 0, 0]],
        ...[217, 218, 219, 26, 180].map(refuse), // arm64 has no inotify_init
        [[RET, 0, 0, ALLOW], [LD, 0, 0, 4], [JEQ, 0, 14, 0x40000028], [LD, 0, 0, 0]],
        ...[309, 310, 311, 316, 360, 274].map(refuse), // 32-bit ARM
        [[RET, 0, 0, ALLOW], [RET, 0, 0, ALLOW]],
      ],
    ],
  ])("%s: refuses the keyring, inotify and mqueue calls of every ABI with EPERM, allows the rest", (arch, parts) => {
    expect(decode(uidQuotaFilter(arch)!)).toEqual(parts.flat());
  });

  it("has no table for an architecture it does not know", () => {
    expect(uidQuotaFilter("ia32")).toBeNull();
  });
});
