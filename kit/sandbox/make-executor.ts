import { DockerExecutor } from "./docker-executor.js";
import { SandboxConfigError } from "./errors.js";
import type { Executor } from "./executor.js";
import { LocalExecutor } from "./local-executor.js";
import type { SandboxStart } from "./sandbox-start.js";
import { WarmExecutor } from "./warm-executor.js";
import { printableLine } from "../util/index.js";

export interface ExecutorSettings {
  readonly unsafe?: boolean;
  /** Local backend: the interpreter (SandboxConfig.python; empty → OPENMLE_PYTHON or /usr/bin/python3). */
  readonly python?: string;
  readonly dockerImage?: string;
  /** Local backend: cold (a fresh interpreter per program, default) or warm (forked from a zygote). */
  readonly start?: SandboxStart;
  readonly onWarning?: (message: string) => void;
}

/** The executor backends by name (the queue backend is a client, see queue-client.ts). */
export const EXECUTORS = {
  local: (s: ExecutorSettings): Executor =>
    s.start === "warm"
      ? new WarmExecutor({ unsafe: s.unsafe, onWarning: s.onWarning, python: s.python || undefined })
      : new LocalExecutor({ unsafe: s.unsafe, onWarning: s.onWarning, python: s.python || undefined }),
  docker: (s: ExecutorSettings): Executor => {
    if (s.start === "warm")
      (s.onWarning ?? ((m: string) => process.stderr.write(`openmle: ${printableLine(m)}\n`)))(
        "warm start unavailable: the docker backend has no zygote; programs start cold (a fresh interpreter each).",
      );
    return new DockerExecutor({ image: s.dockerImage });
  },
} satisfies Record<string, (s: ExecutorSettings) => Executor>;
export type ExecutorName = keyof typeof EXECUTORS;

export function createExecutor(name: string, settings: ExecutorSettings = {}): Executor {
  const make = (EXECUTORS as Record<string, (s: ExecutorSettings) => Executor>)[name];
  if (!make)
    throw new SandboxConfigError(`Unknown sandbox backend "${name}". Valid: ${Object.keys(EXECUTORS).join(", ")}.`);
  return make(settings);
}
