// The sandbox flags of the CLI, each written once: where programs run (--backend, --docker-image,
// --unsafe, --python, --sandbox-start; the queue's --redis and --queue-key-file), a program's limits
// (--timeout, --memory, --cpus, --gpus, --disk) and the per-program time limit of the search commands.
// Commands add them with `addOption` in their own help order; the functions below turn the parsed
// strings into the sandbox's settings.
import { Option, type Command } from "commander";
import {
  createExecutor,
  openSandboxBackend,
  SANDBOX_STARTS,
  type Executor,
  type SandboxBackend,
  type SandboxLimits,
  type SandboxStart,
  type SearchBackend,
} from "../sandbox/index.js";
import type { Workspace } from "../store/index.js";
import { MAX_TIMER_S } from "../util/index.js";
import { intFlag, numberFlag, type FlagRange } from "./numeric-flag.js";
import { UsageError } from "./run-cli.js";

/**
 * The commands that run programs: `sandbox run` (one job), `worker` (a queue's jobs) and the search
 * commands (`evolve`, `sft collect`, `rl train`, `loop`: many programs, here or on the queue's workers).
 */
export type SandboxCommand = "sandbox run" | "worker" | "search";

/** `sandbox run` and the search commands may also hand their jobs to a queue; a worker is that queue's far end. */
const BACKENDS: Readonly<Record<SandboxCommand, readonly string[]>> = {
  "sandbox run": ["local", "docker", "queue"],
  worker: ["local", "docker"],
  search: ["local", "docker", "queue"],
};

/** What --unsafe warns about: `sandbox run` runs one job, a worker warns on each job it runs. */
const UNSAFE_WARNS: Readonly<Record<SandboxCommand, string>> = {
  "sandbox run": "warns",
  worker: "warns every run",
  search: "warns every run",
};

/** The executor flags as parsed (strings, as commander gives them). */
export interface ExecutorFlags {
  readonly backend: string;
  readonly dockerImage: string;
  readonly unsafe?: boolean;
  readonly python?: string;
  /** cold | warm (`worker` and the search commands). */
  readonly sandboxStart?: string;
}

/** The limit flags of `sandbox run` as parsed. */
export interface LimitFlags {
  readonly timeout: string;
  readonly memory: string;
  readonly cpus: string;
  readonly gpus: string;
  readonly disk: string;
}

/** The executor flags as commander options, for `addOption` in a command's own help order. */
export interface ExecutorOptions {
  readonly backend: Option;
  readonly dockerImage: Option;
  readonly unsafe: Option;
  /** Only `sandbox run` offers it (a worker's local backend uses the default interpreter). */
  readonly python: Option;
}

/** --backend, --docker-image, --unsafe and --python, with this command's backends and help texts. */
export function executorOptions(command: SandboxCommand): ExecutorOptions {
  return {
    backend: new Option("--backend <name>", BACKENDS[command].join(" | ")).default("local"),
    dockerImage: new Option("--docker-image <tag>", "image for --backend docker").default("openmle-sandbox:latest"),
    unsafe: new Option("--unsafe", `local backend without bubblewrap: NO isolation (${UNSAFE_WARNS[command]})`),
    python: new Option(
      "--python <path>",
      "local backend: the interpreter (default: OPENMLE_PYTHON, else /usr/bin/python3); " +
        "a virtualenv outside /usr is mounted read-only",
    ),
  };
}

/** Add --timeout, --memory, --cpus, --gpus, --disk: the limits of one job (`sandbox run`). */
export function addLimitOptions(cmd: Command): Command {
  return cmd
    .option("--timeout <s>", "wall-clock limit in seconds", "600")
    .option("--memory <MB>", "memory cap in MiB", "4096")
    .option("--cpus <n>", "CPU threads", "2")
    .option("--gpus <n>", "GPUs", "0")
    .option("--disk <MB>", "disk quota of the job folder in MiB", "8192");
}

/** --queue-key-file of the queue's clients (`sandbox run`, the search commands with --backend queue) and workers. */
export function queueKeyFileOption(): Option {
  return new Option(
    "--queue-key-file <file>",
    "file holding the queue key shared by clients and workers (default: the OPENMLE_QUEUE_KEY variable)",
  );
}

/** --timeout of the commands that run many programs (evolve, sft collect, rl train); `note` ends the help. */
export function programTimeoutOption(note = ""): Option {
  return new Option("--timeout <s>", `time limit of one program in seconds${note}`);
}

/** Refuse a --backend the command does not offer, naming the ones it does. */
export function checkBackend(command: SandboxCommand, backend: string): void {
  const valid = BACKENDS[command];
  if (!valid.includes(backend)) {
    throw new UsageError(`--backend ${backend} is invalid: use ${valid.slice(0, -1).join(", ")} or ${valid.at(-1)}.`);
  }
}

/** --sandbox-start of `worker` and the search commands: how the local backend starts each program. */
export function sandboxStartOption(): Option {
  return new Option(
    "--sandbox-start <how>",
    "local backend: cold (a fresh interpreter per program) | warm (forked from a per-task zygote)",
  ).default("cold");
}

/** A --sandbox-start value, or a usage error naming the valid ones. */
export function sandboxStartFromFlag(value: string | undefined): SandboxStart {
  const v = value ?? "cold";
  if (!(SANDBOX_STARTS as readonly string[]).includes(v))
    throw new UsageError(`--sandbox-start ${v} is invalid: use ${SANDBOX_STARTS.join(" or ")}.`);
  return v as SandboxStart;
}

/** The executor of a local or docker --backend (checked with `checkBackend` first). */
export function executorFromFlags(o: ExecutorFlags, onWarning: (message: string) => void): Executor {
  return createExecutor(o.backend, {
    unsafe: o.unsafe,
    python: o.python,
    dockerImage: o.dockerImage,
    start: sandboxStartFromFlag(o.sandboxStart),
    onWarning,
  });
}

/** The sandbox flags of the search commands as parsed. */
export interface SearchSandboxFlags {
  readonly backend: string;
  readonly redis: string;
  readonly queueKeyFile?: string;
  readonly sandboxStart: string;
  readonly dockerImage: string;
}

/**
 * Add --backend, --redis, --queue-key-file, --sandbox-start and --docker-image: where a search command
 * (evolve, sft collect, rl train, loop) runs its programs.
 */
export function addSearchSandboxOptions(cmd: Command): Command {
  const flags = executorOptions("search");
  return cmd
    .addOption(flags.backend)
    .option("--redis <url>", "Redis URL for --backend queue", "redis://127.0.0.1:6379")
    .addOption(queueKeyFileOption())
    .addOption(sandboxStartOption())
    .addOption(flags.dockerImage);
}

/** The search flags checked (a usage error names the bad value), before anything connects or loads. */
export function checkSearchSandboxFlags(o: SearchSandboxFlags): void {
  checkBackend("search", o.backend);
  sandboxStartFromFlag(o.sandboxStart);
}

/**
 * The backend of a search command's flags: `{ evaluate, executor?, close }` (kit/sandbox
 * openSandboxBackend). queue: a SandboxQueueClient on --redis with the key of --queue-key-file (else
 * OPENMLE_QUEUE_KEY) and `workspace`, so records are written once; local, docker: createExecutor with
 * --sandbox-start. The caller closes it when the command ends, also on error (`withSearchSandbox`).
 */
export function searchSandboxFromFlags(
  o: SearchSandboxFlags,
  opts: { readonly workspace?: Workspace; readonly onWarning?: (message: string) => void } = {},
): Promise<SandboxBackend> {
  checkSearchSandboxFlags(o);
  return openSandboxBackend({
    backend: o.backend as SearchBackend,
    redisUrl: o.redis,
    queueKey: o.queueKeyFile ? { keyFile: o.queueKeyFile } : {},
    start: sandboxStartFromFlag(o.sandboxStart),
    dockerImage: o.dockerImage,
    workspace: opts.workspace,
    onWarning: opts.onWarning,
  });
}

/** Run `fn` with the backend of a search command's flags; the backend is closed afterwards, also on error. */
export async function withSearchSandbox<T>(
  o: SearchSandboxFlags,
  opts: { readonly workspace?: Workspace; readonly onWarning?: (message: string) => void },
  fn: (b: SandboxBackend) => Promise<T>,
): Promise<T> {
  const backend = await searchSandboxFromFlags(o, opts);
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}

/** A program's time limit (--timeout of every command): at most what a Node timer can wait. */
export const PROGRAM_TIMEOUT_RANGE: FlagRange = { min: 0.1, max: MAX_TIMER_S, why: "Node timers cannot wait longer" };

/**
 * The largest --memory and --disk in MiB: 16 TiB, past any machine the kit runs on (and their bytes stay
 * exact integers); --cpus and --gpus: slots and thread counts, far past any machine's count.
 */
export const SANDBOX_FLAG_MAX = { mib: 2 ** 24, cpus: 1_024, gpus: 64 } as const;

/** The limits of one job from its flags; a value out of range is a usage error naming its range. */
export function limitsFromFlags(o: LimitFlags): SandboxLimits {
  return {
    timeoutS: numberFlag("timeout", o.timeout, PROGRAM_TIMEOUT_RANGE),
    memoryMb: numberFlag("memory", o.memory, { min: 32, max: SANDBOX_FLAG_MAX.mib }),
    cpus: intFlag("cpus", o.cpus, { min: 1, max: SANDBOX_FLAG_MAX.cpus }),
    gpus: intFlag("gpus", o.gpus, { min: 0, max: SANDBOX_FLAG_MAX.gpus }),
    diskMb: numberFlag("disk", o.disk, { min: 1, max: SANDBOX_FLAG_MAX.mib }),
  };
}
