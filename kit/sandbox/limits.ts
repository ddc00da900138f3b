import type { SandboxLimits } from "./types.js";
import { MAX_TIMER_S } from "../util/timer-limit.js";
import { SandboxConfigError } from "./errors.js";

/** Defaults of a job's limits: 10 minutes, 4 GiB, 2 threads, no GPU, 8 GiB of job folder. */
export const DEFAULT_LIMITS: SandboxLimits = { timeoutS: 600, memoryMb: 4096, cpus: 2, gpus: 0, diskMb: 8192 };

/** Fill in defaults and reject nonsense, naming the bad value. */
export function resolveLimits(
  partial: Partial<SandboxLimits> = {},
  defaults: SandboxLimits = DEFAULT_LIMITS,
): SandboxLimits {
  const out: SandboxLimits = {
    timeoutS: partial.timeoutS ?? defaults.timeoutS,
    memoryMb: partial.memoryMb ?? defaults.memoryMb,
    cpus: partial.cpus ?? defaults.cpus,
    gpus: partial.gpus ?? defaults.gpus,
    diskMb: partial.diskMb ?? defaults.diskMb,
  };
  const check = (name: keyof SandboxLimits, min: number, int: boolean) => {
    const v = out[name];
    if (!Number.isFinite(v) || v < min || (int && !Number.isInteger(v))) {
      throw new SandboxConfigError(
        `Sandbox limit ${name}=${v} is invalid: use ${int ? "an integer" : "a number"} >= ${min}.`,
      );
    }
  };
  check("timeoutS", 0.1, false);
  if (out.timeoutS > MAX_TIMER_S) {
    throw new SandboxConfigError(
      `Sandbox limit timeoutS=${out.timeoutS} is invalid: use at most ${MAX_TIMER_S} s (about 24.8 ` +
        `days); Node timers cannot wait longer.`,
    );
  }
  check("memoryMb", 32, false);
  check("cpus", 1, true);
  check("gpus", 0, true);
  check("diskMb", 1, false);
  return out;
}
