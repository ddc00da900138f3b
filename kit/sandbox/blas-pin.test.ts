import { describe, expect, it } from "vitest";
import { loadTask } from "../gym/index.js";
import { blasCoreType, hostBlasCoreType, hostCpuFlags, parseCpuFlags } from "../jail/index.js";
import { sandboxEnv } from "./executor.js";
import { probeBwrap } from "./local-executor.js";
import { runSandbox } from "./run-sandbox.js";
import { TINY_TASK_DIR } from "./test-helpers.js";

const AVX512 = new Set(["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512vl"]);
const AVX2 = new Set(["sse4_2", "avx", "avx2", "fma"]);
const AVX = new Set(["sse4_2", "avx"]);

describe("blasCoreType", () => {
  it.each([
    ["an AVX-512 host runs the AVX2 kernels", {}, "x64", AVX512, "Haswell"],
    ["an AVX2 host (Zen, Haswell) runs the same", {}, "x64", AVX2, "Haswell"],
    ["a host without AVX2 keeps OpenBLAS's own choice", {}, "x64", AVX, null],
    ["AVX2 without FMA is not enough for the Haswell kernels", {}, "x64", new Set(["avx", "avx2"]), null],
    ["arm64 is left alone", {}, "arm64", new Set(["asimd"]), null],
    ["the host's core type wins", { OPENBLAS_CORETYPE: "SkylakeX" }, "x64", AVX512, "SkylakeX"],
    ["an empty host setting is no setting", { OPENBLAS_CORETYPE: "" }, "x64", AVX2, "Haswell"],
  ])("%s", (_, env, arch, flags, want) => {
    expect(blasCoreType(env, arch, flags)).toBe(want);
  });
});

describe("parseCpuFlags", () => {
  it("reads the first flags line of /proc/cpuinfo", () => {
    const text = "processor\t: 0\nflags\t\t: fpu sse avx2 fma\nbugs\t\t: none\n\nprocessor\t: 1\nflags\t\t: fpu\n";
    expect([...parseCpuFlags(text)]).toEqual(["fpu", "sse", "avx2", "fma"]);
    expect(parseCpuFlags("").size).toBe(0);
  });
});

describe("sandboxEnv", () => {
  it("gives every program this host's core type, and an explicit one for the job over it", () => {
    const limits = { cpus: 2, gpus: 0 } as Parameters<typeof sandboxEnv>[0];
    const want = blasCoreType(process.env, process.arch, hostCpuFlags());
    expect(sandboxEnv(limits, "/data", "/workspace").OPENBLAS_CORETYPE).toBe(want ?? undefined);
    expect(sandboxEnv(limits, "/data", "/workspace", { OPENBLAS_CORETYPE: "Zen" }).OPENBLAS_CORETYPE).toBe("Zen");
  });
});

describe.skipIf(!!probeBwrap())("a program in the sandbox", () => {
  it("runs the pinned OpenBLAS kernels (threadpoolctl reports them), or OpenBLAS's own where nothing is pinned", async () => {
    const task = await loadTask(TINY_TASK_DIR);
    const code = [
      "import numpy", "from threadpoolctl import threadpool_info",
      "print('ARCH', [i.get('architecture') for i in threadpool_info() if i.get('internal_api') == 'openblas'])",
    ].join("\n");
    const limits = { timeoutS: 30, memoryMb: 1024, cpus: 1 };
    const pinned = hostBlasCoreType();
    const r = await runSandbox({ task, code, limits });
    expect(r.stdoutTail).toMatch(/ARCH \['\w+'\]/);
    if (pinned) expect(r.stdoutTail).toContain(`ARCH ['${pinned}']`);
    if (process.arch !== "x64") return;
    // A job's own core type wins (Prescott: SSE3, runs on every x86-64 CPU).
    const own = await runSandbox({ task, code, limits, env: { OPENBLAS_CORETYPE: "Prescott" } });
    expect(own.stdoutTail).toContain("ARCH ['Prescott']");
  }, 60_000);
});
