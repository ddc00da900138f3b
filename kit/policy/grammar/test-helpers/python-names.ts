import { spawnSync } from "node:child_process";
import { join } from "node:path";

/** The names a Python source binds at its top level and the free names it reads (builtins left out). */
export interface PythonNames {
  readonly defines: readonly string[];
  readonly uses: readonly string[];
}

export interface PythonCheck {
  /** The programs that failed to compile, with the error. */
  readonly errors: readonly { readonly name: string; readonly error: string }[];
  /** The names of each source of `names`, in order. */
  readonly names: readonly PythonNames[];
}

/**
 * In one python3 process: `compile(code, name, "exec")` of every program, and the names each source of
 * `names` defines and uses (python-names.py says how they are found: ast for the top level, symtable inside).
 */
export function checkPython(programs: readonly { name: string; code: string }[], names: readonly string[] = []): PythonCheck {
  const r = spawnSync("/usr/bin/python3", [join(import.meta.dirname, "python-names.py")], {
    input: JSON.stringify({ compile: programs, names }), encoding: "utf8", maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`python-names.py failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as PythonCheck;
}
