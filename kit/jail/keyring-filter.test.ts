// The keyring seccomp filter (issue 59): its instructions, decoded, for each architecture.
import { describe, expect, it } from "vitest";
import { keyringFilter } from "./keyring-filter.js";

/** [code, jt, jf, k] per instruction, from the little-endian sock_filter bytes. */
function decode(buf: Buffer): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < buf.length; i += 8)
    out.push([buf.readUInt16LE(i), buf.readUInt8(i + 2), buf.readUInt8(i + 3), buf.readUInt32LE(i + 4)]);
  return out;
}

const [LD, JEQ, RET, ALLOW, EPERM] = [0x20, 0x15, 0x06, 0x7fff0000, 0x50001];
const refuse = (nr: number) => [[JEQ, 0, 1, nr], [RET, 0, 0, EPERM]];

describe("keyringFilter", () => {
  it.each([
    [
      "x64",
      [
        [[LD, 0, 0, 4], [JEQ, 0, 14, 0xc000003e], [LD, 0, 0, 0]],
        ...[248, 249, 250, 0x400000f8, 0x400000f9, 0x400000fa].map(refuse),
        [[RET, 0, 0, ALLOW], [LD, 0, 0, 4], [JEQ, 0, 8, 0x40000003], [LD, 0, 0, 0]],
        ...[286, 287, 288].map(refuse),
        [[RET, 0, 0, ALLOW], [RET, 0, 0, ALLOW]],
      ],
    ],
    [
      "arm64",
      [
        [[LD, 0, 0, 4], [JEQ, 0, 8, 0xc00000b7], [LD, 0, 0, 0]],
        ...[217, 218, 219].map(refuse),
        [[RET, 0, 0, ALLOW], [LD, 0, 0, 4], [JEQ, 0, 8, 0x40000028], [LD, 0, 0, 0]],
        ...[309, 310, 311].map(refuse),
        [[RET, 0, 0, ALLOW], [RET, 0, 0, ALLOW]],
      ],
    ],
  ])("%s: refuses add_key, request_key and keyctl of every ABI with EPERM, allows the rest", (arch, parts) => {
    expect(decode(keyringFilter(arch)!)).toEqual(parts.flat());
  });

  it("has no table for an architecture it does not know", () => {
    expect(keyringFilter("ia32")).toBeNull();
  });
});
