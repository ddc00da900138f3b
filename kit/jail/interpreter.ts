import { existsSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Folders every sandbox already mounts read-only (bwrap-args.ts): an interpreter under them needs nothing more. */
const SYSTEM_DIRS = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * The sandbox's Python: the `python` setting when given, else OPENMLE_PYTHON (e.g. the devcontainer's
 * CUDA virtualenv /opt/openmle-py/bin/python), else Debian's /usr/bin/python3.
 */
export function sandboxPython(setting?: string): string {
  return setting || process.env.OPENMLE_PYTHON || "/usr/bin/python3";
}

/**
 * The folder an interpreter's environment lives in, which the sandbox must mount read-only at the same
 * path: a virtualenv's root (the folder above bin/ holding pyvenv.cfg, whose base interpreter and
 * --system-site-packages live under /usr anyway), else the prefix above bin/ for any other installation
 * outside the system folders; null when the interpreter is under them. The path itself is not resolved
 * through symlinks first: a venv's bin/python links to /usr/bin/python3.x, but its site-packages are in the venv.
 */
export function interpreterPrefix(python: string): string | null {
  const abs = resolve(python);
  const bin = dirname(abs);
  const root = dirname(bin);
  const under = (p: string) => SYSTEM_DIRS.some((d) => p === d || p.startsWith(`${d}/`));
  if (existsSync(resolve(root, "pyvenv.cfg"))) return under(root) ? null : root;
  let real = abs;
  try {
    real = realpathSync(abs);
  } catch {
    return null; // a missing interpreter fails visibly when the job starts
  }
  if (under(real) && under(abs)) return null;
  return dirname(dirname(under(real) ? abs : real));
}
