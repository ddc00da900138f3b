import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { processTree, signalAll } from "../util/kill-tree.js";
import { PythonError, PythonTimeoutError } from "./errors.js";

/** The interpreter with the ML stack. OPENMLE_PYTHON overrides it (tests, other machines). */
export const PYTHON = process.env.OPENMLE_PYTHON ?? "/usr/bin/python3";

/**
 * The project root: the nearest folder above this file with the kit's package.json. Works both from
 * kit/gym (tsx, vitest) and from dist/kit/gym (compiled), because the .py files are not compiled:
 * they are read from `<root>/kit/gym/python` in both cases.
 */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && /"name":\s*"openmle"/.test(readFileSync(pkg, "utf8"))) return dir;
    const up = dirname(dir);
    if (up === dir)
      throw new PythonError("cannot find the openmle project root above " + fileURLToPath(import.meta.url), dir);
    dir = up;
  }
}

/** Absolute path of one of the gym's Python helpers (kit/gym/python/<name>). */
export function pythonHelper(name: string): string {
  return join(projectRoot(), "kit", "gym", "python", name);
}

export interface PythonRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** It ran past its limit: the whole process tree got SIGTERM, then SIGKILL after a grace period. */
  readonly timedOut: boolean;
}

/** After SIGTERM at the limit, what a process tree gets to exit cleanly before SIGKILL. */
export const KILL_GRACE_MS = 2000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Run /usr/bin/python3 with args; never throws for a non-zero exit (the caller classifies). Past
 * `timeoutMs` (default 300 s) the process and every descendant get SIGTERM, and SIGKILL
 * KILL_GRACE_MS later: a script that ignores SIGTERM (or a child it started) cannot outlive the
 * limit. Output past 64 MiB per stream kills the tree the same way.
 */
export function runPython(
  args: readonly string[],
  opts: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<PythonRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(PYTHON, args as string[], {
      cwd: opts.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...opts.env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let timedOut = false;
    let overflow = false;
    const seen = new Set<number>();
    let grace: NodeJS.Timeout | undefined;
    let force: NodeJS.Timeout | undefined;
    const stopTree = () => {
      if (grace || !child.pid) return;
      for (const p of processTree(child.pid)) seen.add(p);
      signalAll(seen, "SIGTERM");
      grace = setTimeout(() => {
        // Descendants found now, and those seen at SIGTERM (orphans are no longer under the child).
        for (const p of processTree(child.pid!)) seen.add(p);
        signalAll(seen, "SIGKILL");
        // Something outside the tree may still hold the pipes: stop waiting for them.
        force = setTimeout(() => child.emit("close", null, "SIGKILL"), 1000);
      }, KILL_GRACE_MS);
    };
    const collect = (into: Buffer[]) => (b: Buffer) => {
      bytes += b.length;
      if (bytes > 2 * MAX_OUTPUT_BYTES) {
        overflow = true;
        stopTree();
      } else into.push(b);
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    const timer = setTimeout(() => {
      timedOut = true;
      stopTree();
    }, opts.timeoutMs ?? 300_000);
    let settled = false;
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(
        e.code === "ENOENT"
          ? new PythonError(
              `${PYTHON} not found. Fix: install Debian's python3 with pandas and scikit-learn ` +
                `(scripts/setup.sh), or set OPENMLE_PYTHON.`,
              PYTHON,
            )
          : e,
      );
    });
    child.on("close", (code: number | null) => {
      if (settled) return;
      settled = true;
      [timer, grace, force].forEach((t) => clearTimeout(t));
      child.stdout.destroy();
      child.stderr.destroy();
      const stderr =
        Buffer.concat(err).toString() + (overflow ? `\noutput past ${MAX_OUTPUT_BYTES} bytes: stopped` : "");
      resolveRun({ code: code ?? 1, stdout: Buffer.concat(out).toString(), stderr, timedOut });
    });
  });
}

/** The `OPENMLE_RESULT <json>` line a harness prints as its last result, parsed; throws naming `what`. */
export function harnessResult<T>(run: PythonRun, what: string, file: string): T {
  const line = run.stdout
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("OPENMLE_RESULT "));
  if (!line) {
    const tail = (run.stderr || run.stdout).trim().split("\n").slice(-5).join(" | ");
    throw new PythonError(`${what} produced no result (exit ${run.code}): ${tail}`, file);
  }
  return JSON.parse(line.slice("OPENMLE_RESULT ".length)) as T;
}

/**
 * Run one of the kit's OWN harnesses on the host (no package code: e.g. builtin_raw.py materialising a
 * built-in dataset). Anything that imports a package's prepare.py or metric.py goes through package-harness.ts.
 */
export async function runKitHarness<T>(
  script: string,
  args: readonly string[],
  opts: { timeoutMs?: number } = {},
): Promise<T> {
  const run = await runPython([pythonHelper(script), ...args], opts);
  const what = `${script} ${args[0] ?? ""}`;
  if (run.timedOut)
    throw new PythonTimeoutError(
      `${what} ran past its ${(opts.timeoutMs ?? 300_000) / 1000} s limit; stopped.`,
      pythonHelper(script),
      (opts.timeoutMs ?? 300_000) / 1000,
    );
  return harnessResult<T>(run, what, pythonHelper(script));
}
