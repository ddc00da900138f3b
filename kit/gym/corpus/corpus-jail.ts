import { runJailed, type JailMount } from "../../jail/index.js";
import { GymError } from "../errors.js";

/** A corpus export, enumeration or profile that failed: the message is the one-line reason (the funnel records it). */
export class CorpusExportError extends GymError {
  constructor(
    message: string,
    readonly candidate: string,
    options?: { cause?: unknown },
  ) {
    super(message, candidate, options);
  }
}

export interface CorpusRun {
  /** What runs, for messages ("Rscript export.R export MASS Boston"). */
  readonly what: string;
  readonly candidate: string;
  readonly command: readonly string[];
  readonly mounts: readonly JailMount[];
  readonly timeoutS: number;
  readonly memoryMb: number;
}

/**
 * Run one of the corpus's own scripts (R or Python) in the jail, as the sandbox account: the installed data
 * packages are read like any foreign code, never as the host user. Returns the parsed `OPENMLE_RESULT` line;
 * a timeout, the memory cap, a jail failure or `{ok: false}` throw CorpusExportError with the reason.
 */
export async function runCorpusScript<T extends { ok: boolean; message?: string }>(run: CorpusRun): Promise<T> {
  const r = await runJailed({
    command: run.command,
    mounts: run.mounts,
    env: { PYTHONDONTWRITEBYTECODE: "1", MPLCONFIGDIR: "/tmp", R_LIBS_USER: "/nonexistent" },
    limits: { timeoutS: run.timeoutS, memoryMb: run.memoryMb },
  });
  const fail = (why: string): never => {
    throw new CorpusExportError(`${run.what}: ${why}`, run.candidate);
  };
  if (r.timedOut) fail(`timed out after ${run.timeoutS} s (raise ExportConfig.timeoutS if the source is just slow)`);
  if (r.oomKilled) fail(`went past its ${run.memoryMb} MiB memory cap (raise ExportConfig.memoryMb)`);
  if (r.diskQuota) fail(`wrote past its disk quota (${r.diskQuota})`);
  if (r.jailError) fail(`the jail failed: ${r.jailError.split("\n")[0]}`);
  const line = r.stdout
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("OPENMLE_RESULT "));
  if (!line) {
    const tail = (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" | ");
    return fail(`no result (exit ${r.exitCode}): ${tail.slice(0, 500)}`);
  }
  const res = JSON.parse(line.slice("OPENMLE_RESULT ".length)) as T;
  if (!res.ok) fail(String(res.message ?? "failed").split("\n")[0]!);
  return res;
}
