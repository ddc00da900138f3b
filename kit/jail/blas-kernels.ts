import { readFileSync } from "node:fs";

/**
 * The OpenBLAS core type every jailed process runs with (programs, the scorer, package code), so that one program
 * grades the same on every x86-64 host:
 *
 *   coreType(env, arch, flags) = env.OPENBLAS_CORETYPE   where the host sets one (the host's choice wins)
 *                              = "Haswell"               where arch = x64 and flags ⊇ {avx2, fma}
 *                              = null                    otherwise (OpenBLAS picks by CPU, as without the kit)
 *
 * Why: OpenBLAS (Debian's, and the wheels') picks its kernels by CPU at start-up. An AVX-512 host runs other
 * kernels than an AVX2 host, sums in another order, fits slightly different models, and the same program's grade
 * differs (mostly in the last digits; by 5 % for one held-out program). The Haswell kernels run on every x86-64 CPU
 * with AVX2 and FMA, so pinning them makes those hosts agree (an AVX-512 host pinned to them reproduced an AVX2
 * host's grades: bench/erl/runs/2026-12-06-learning-25-grading-differences.md). Hosts without AVX2 keep
 * OpenBLAS's own choice: a kernel the CPU cannot run would crash every program.
 */
export function blasCoreType(
  env: Readonly<Record<string, string | undefined>>,
  arch: string,
  cpuFlags: ReadonlySet<string>,
): string | null {
  if (env.OPENBLAS_CORETYPE) return env.OPENBLAS_CORETYPE;
  return arch === "x64" && cpuFlags.has("avx2") && cpuFlags.has("fma") ? "Haswell" : null;
}

/** The feature flags of a /proc/cpuinfo text: its first `flags` line (empty where there is none). */
export function parseCpuFlags(cpuinfo: string): ReadonlySet<string> {
  return new Set(/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1]?.trim().split(/\s+/) ?? []);
}

let hostFlags: ReadonlySet<string> | undefined;

/** This host CPU's feature flags, read once (none where there is no /proc/cpuinfo: not Linux, so no pin). */
export function hostCpuFlags(): ReadonlySet<string> {
  if (!hostFlags) {
    let text = "";
    try {
      text = readFileSync("/proc/cpuinfo", "utf8");
    } catch {
      // Not Linux: no flags, so no pin.
    }
    hostFlags = parseCpuFlags(text);
  }
  return hostFlags;
}

/** This host's pin (blasCoreType of process.env, process.arch and /proc/cpuinfo). */
export function hostBlasCoreType(): string | null {
  return blasCoreType(process.env, process.arch, hostCpuFlags());
}

/** The environment entry that pins it for a jailed process: programs, the scorer, package code. */
export function blasPinEnv(): Record<string, string> {
  const t = hostBlasCoreType();
  return t ? { OPENBLAS_CORETYPE: t } : {};
}
