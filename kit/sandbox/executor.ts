import { blasPinEnv } from "../jail/index.js";
import type { ProcessOutcome } from "./classify.js";
import type { SandboxLimits } from "./types.js";

/** Where things live inside the sandbox (same paths on every backend). */
export const SANDBOX_WORKDIR = "/workspace";
export const SANDBOX_DATA_DIR = "/data";

/** One program run: the job folder holds code/main.py and is the only writable place. */
export interface ExecSpec {
  /** Host folder of the job; mounted writable at /workspace (the working directory). */
  readonly jobDir: string;
  /** Host folder of the task's public data; mounted read-only at /data (DATA_DIR). */
  readonly publicDir: string;
  readonly limits: SandboxLimits;
  /** Bytes of stdout/stderr kept (the tail, plus a short head). */
  readonly outputCapBytes: number;
  /** Extra environment variables for the program. */
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

export interface ExecResult extends ProcessOutcome {
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMemMb: number | null;
  readonly cancelled: boolean;
  /** The message when the job folder passed limits.diskMb and the job was killed, else null. */
  readonly diskQuota: string | null;
  readonly warnings: readonly string[];
}

/** Entries a job folder may hold (files and folders) before the job is killed as over quota. */
export const MAX_JOB_FILES = 50_000;

/** A backend that runs a program under the sandbox contract (see README.md). */
export interface Executor {
  readonly name: string;
  run(spec: ExecSpec): Promise<ExecResult>;
  /** Stop what the backend keeps running between programs (the warm start's zygotes); absent: nothing to stop. */
  close?(): Promise<void>;
}

/** Environment every backend gives the program: paths, and thread counts capped to the job's CPUs. */
export function sandboxEnv(
  limits: SandboxLimits,
  dataDir: string,
  workDir: string,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const threads = String(limits.cpus);
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: "/tmp",
    TMPDIR: "/tmp",
    LANG: "C.UTF-8",
    DATA_DIR: dataDir,
    OUTPUT_DIR: workDir,
    SUBMISSION_PATH: `${workDir}/submission.csv`,
    PYTHONUNBUFFERED: "1",
    PYTHONDONTWRITEBYTECODE: "1",
    PYTHONHASHSEED: "0",
    MPLBACKEND: "Agg",
    MPLCONFIGDIR: "/tmp",
    OMP_NUM_THREADS: threads,
    // Spinning OpenMP workers starve each other on a busy 2-core host (xgboost: 48 s → 1 s).
    OMP_WAIT_POLICY: "PASSIVE",
    MKL_NUM_THREADS: threads,
    OPENBLAS_NUM_THREADS: threads,
    NUMEXPR_NUM_THREADS: threads,
    NUMEXPR_MAX_THREADS: threads,
    VECLIB_MAXIMUM_THREADS: threads,
    NUMBA_NUM_THREADS: threads,
    RAYON_NUM_THREADS: threads,
    TF_NUM_INTRAOP_THREADS: threads,
    TF_NUM_INTEROP_THREADS: "1",
    CUDA_VISIBLE_DEVICES:
      limits.gpus > 0 ? (extra.CUDA_VISIBLE_DEVICES ?? Array.from({ length: limits.gpus }, (_, i) => i).join(",")) : "",
    // One set of BLAS kernels on every x86-64 host with AVX2, so grades agree across machines (blas-kernels.ts); a
    // core type the host sets wins.
    ...blasPinEnv(),
    ...passThrough("OPENBLAS_L2_SIZE"),
    ...extra,
  };
}

function passThrough(...names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (process.env[n]) out[n] = process.env[n]!;
  return out;
}
