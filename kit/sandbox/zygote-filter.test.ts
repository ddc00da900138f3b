// The warm child's own seccomp table (python/zygote_child.py) refuses the same per-uid quota calls as the filter
// bubblewrap loads for every sandbox (kit/jail/uid-quota-filter.ts): two copies of the numbers, kept equal here.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { UID_QUOTA_CALLS } from "../jail/uid-quota-filter.js";
import { zygoteDir } from "./zygote.js";

const python = (code: string) =>
  JSON.parse(execFileSync("/usr/bin/python3", ["-c", code], { cwd: zygoteDir(), encoding: "utf8" })) as unknown;

describe("the zygote's quota table", () => {
  const quota = python("import json, zygote_child; print(json.dumps(zygote_child.QUOTA))") as Record<
    string,
    Record<string, number>
  >;
  it.each([
    ["x86_64", "x64"],
    ["aarch64", "arm64"],
  ])("%s: the native numbers of the jail's filter, no more, no fewer", (pyArch, nodeArch) => {
    const native = UID_QUOTA_CALLS[nodeArch]![0]![1].filter((n) => n < 0x40000000);
    expect(Object.values(quota[pyArch]!).sort((a, b) => a - b)).toEqual([...native].sort((a, b) => a - b));
  });
  it("is what the zygote's seccomp program refuses", () => {
    const refused = python(
      "import json, zygote_child as z; print(json.dumps(sorted(z.ARCHES['x86_64'][2].values())))",
    ) as number[];
    for (const n of Object.values(quota.x86_64!)) expect(refused).toContain(n);
  });
});
