import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { jailUnavailable, runJailed, type JailMount } from "../jail/index.js";
import {
  PackageCodeError,
  PackageJailUnavailableError,
  PythonError,
  PythonTimeoutError,
  type PackageStage,
} from "./errors.js";
import { harnessResult, PYTHON, pythonHelper, runPython, type PythonRun } from "./python.js";

/** Limits of the jail a package's code runs in (one run of prepare.py, or of a harness importing metric.py). */
export const PackageJailConfig = z
  .object({
    /** Memory cap of prepare.py (MiB): it loads whole raw datasets. */
    prepareMemoryMb: z.number().positive().default(8192),
    /** Memory cap of every other stage (metric inspection, probing, verification, checks, scoring). */
    memoryMb: z.number().positive().default(4096),
    /** What prepare.py may write into public/ and private/ together (MiB). */
    prepareDiskMb: z
      .number()
      .positive()
      .default(32 * 1024),
    /** Processes and threads at once. */
    maxPids: z.number().int().positive().default(512),
    /** The bubblewrap binary. */
    bwrap: z.string().min(1).default("bwrap"),
  })
  .strict();
export type PackageJailConfig = z.infer<typeof PackageJailConfig>;

let config: PackageJailConfig = PackageJailConfig.parse({});
let trusted = process.env.OPENMLE_TRUST_PACKAGES === "1";
let warned = false;

/** Change the package jail's limits (unknown keys are errors). */
export function configurePackageJail(partial: Partial<PackageJailConfig>): PackageJailConfig {
  config = PackageJailConfig.parse({ ...config, ...partial });
  return config;
}

/**
 * Allow package code to run on the host when the jail cannot be had (the CLI's --trust-package, or
 * OPENMLE_TRUST_PACKAGES=1). Where the jail works it is used regardless.
 */
export function trustPackages(on: boolean): void {
  trusted = on;
}

/** The stage a harness call belongs to, the package file it runs, and what it sees. */
export interface HarnessJail {
  readonly stage: PackageStage;
  /** The package file whose code runs (named in errors). */
  readonly file: string;
  /** Host files and folders it reads (mounted read-only at the same path). */
  readonly read: readonly string[];
  /** Folders it writes (the only writable places); none for inspection, probing and scoring. */
  readonly write?: readonly string[];
}

/**
 * Run one of the gym's Python harnesses on a package's code, in the jail (kit/jail): the harness folder,
 * `read` read-only, `write` writable, nothing else of the host, no network, as the unprivileged sandbox
 * account. Then parse its `OPENMLE_RESULT <json>` line. Without a jail it refuses (PackageJailUnavailableError)
 * unless packages are trusted, and then runs on the host with a warning.
 */
export async function runHarness<T>(
  script: string,
  args: readonly string[],
  jail: HarnessJail,
  opts: { timeoutMs?: number } = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const run = await runInJail([pythonHelper(script), ...args], jail, timeoutMs);
  if (run.timedOut) {
    throw new PythonTimeoutError(
      `${jail.stage}: ${script} ${args[0] ?? ""} on ${jail.file} ran past its ${timeoutMs / 1000} s limit; it and ` +
        `its child processes were stopped.`,
      jail.file,
      timeoutMs / 1000,
    );
  }
  return harnessResult<T>(run, `${jail.stage}: ${script} ${args[0] ?? ""} on ${jail.file}`, jail.file);
}

async function runInJail(argv: readonly string[], jail: HarnessJail, timeoutMs: number): Promise<PythonRun> {
  const why = jailUnavailable(config.bwrap);
  if (why) return runTrusted(argv, jail, timeoutMs, why);
  const memoryMb = jail.stage === "prepare" || jail.stage === "import" ? config.prepareMemoryMb : config.memoryMb;
  const mounts: JailMount[] = [
    { path: dirname(pythonHelper("run_prepare.py")) },
    ...unique(jail.read.filter((p) => existsSync(p))).map((path) => ({ path })),
    ...unique(jail.write ?? []).map((path) => ({ path, writable: true })),
  ];
  const r = await runJailed({
    command: [PYTHON, ...argv],
    bwrap: config.bwrap,
    mounts,
    env: { PYTHONDONTWRITEBYTECODE: "1", MPLCONFIGDIR: "/tmp" },
    limits: { timeoutS: timeoutMs / 1000, memoryMb, diskMb: config.prepareDiskMb, maxPids: config.maxPids },
  });
  const refuse = (refused: string, what: string) => {
    throw new PackageCodeError(`${jail.stage}: ${jail.file} ${what}; it was stopped.`, jail.file, jail.stage, refused);
  };
  if (r.jailError) throw new PythonError(`${jail.stage}: the jail for ${jail.file} failed: ${r.jailError}`, jail.file);
  if (r.oomKilled) refuse("memory", `went past its ${memoryMb} MiB memory cap`);
  if (r.diskQuota) refuse("disk", `wrote past its disk quota (${r.diskQuota})`);
  if (r.removed.length)
    refuse("links", `left links or special files in its output (removed: ${r.removed.slice(0, 3).join(", ")})`);
  return { code: r.exitCode ?? 1, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
}

async function runTrusted(
  argv: readonly string[],
  jail: HarnessJail,
  timeoutMs: number,
  why: string,
): Promise<PythonRun> {
  if (!trusted)
    throw new PackageJailUnavailableError(
      `${jail.stage}: refusing to run ${jail.file}: a package's code runs only in the jail, and the jail is not ` +
        `available here (${why}). Fix: install bubblewrap and allow unprivileged user namespaces (scripts/setup.sh), ` +
        `or, if you trust this package's author, call trustPackages(true) (or set OPENMLE_TRUST_PACKAGES=1) to ` +
        `run it on this host with your privileges.`,
      jail.file,
    );
  if (!warned) {
    warned = true;
    const who = process.getuid?.() === 0 ? "root" : "your user";
    process.stderr.write(
      `WARNING: running package code (${jail.file}) on this host WITHOUT a jail (trusted packages: ` +
        `--trust-package / OPENMLE_TRUST_PACKAGES=1): it can read, write and connect to whatever ${who} can.\n`,
    );
  }
  return runPython(argv, { timeoutMs });
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
