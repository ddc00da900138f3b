import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PythonError } from "./errors.js";

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
    if (up === dir) throw new PythonError("cannot find the openmle project root above " + fileURLToPath(import.meta.url), dir);
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
}

/** Run /usr/bin/python3 with args; never throws for a non-zero exit (the caller classifies). */
export function runPython(args: readonly string[], opts: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<PythonRun> {
  return new Promise((resolveRun, reject) => {
    execFile(
      PYTHON,
      args as string[],
      { cwd: opts.cwd, timeout: opts.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...opts.env } },
      (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === "ENOENT") {
          reject(new PythonError(`${PYTHON} not found. Fix: install Debian's python3 with pandas and scikit-learn (scripts/setup.sh), or set OPENMLE_PYTHON.`, PYTHON));
          return;
        }
        const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : 1) : 0;
        resolveRun({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Run a harness that prints `OPENMLE_RESULT <json>` as its last result line; parse that JSON. */
export async function runHarness<T>(script: string, args: readonly string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<T> {
  const run = await runPython([pythonHelper(script), ...args], opts);
  const line = run.stdout.split("\n").reverse().find((l) => l.startsWith("OPENMLE_RESULT "));
  if (!line) {
    const tail = (run.stderr || run.stdout).trim().split("\n").slice(-5).join(" | ");
    throw new PythonError(`${script} ${args[0] ?? ""} produced no result (exit ${run.code}): ${tail}`, pythonHelper(script));
  }
  return JSON.parse(line.slice("OPENMLE_RESULT ".length)) as T;
}
