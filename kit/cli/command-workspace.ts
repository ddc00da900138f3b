import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { openWorkspace, tableCounts, type TableName, type Workspace } from "../store/index.js";
import { addResumeHint } from "./run-cli.js";

/**
 * The tables whose rows are a command's results: a search node, an SFT dataset, a policy checkpoint, an
 * RL step, a loop stage or held-out score, a sandbox record. A `runs`/`rl_runs`/`loops` row or a task
 * row alone is bookkeeping written at the start, not a result.
 */
export const RESULT_TABLES: readonly TableName[] = [
  "nodes",
  "datasets",
  "policy_checkpoints",
  "rl_steps",
  "loop_stages",
  "loop_heldout",
  "loop_heldout_drafts",
  "executions",
];

export interface CommandWorkspaceOptions {
  /**
   * The command that resumes the work (e.g. `openmle evolve … --resume run-1a2b`), printed after the
   * error when the command failed after storing a result; null when nothing can be resumed.
   */
  readonly resume?: () => string | null;
}

/** Rows in the result tables (a broken workspace counts as holding results, so it is never removed). */
async function results(ws: Workspace): Promise<number> {
  const counts = await tableCounts(ws).catch(() => null);
  return counts ? RESULT_TABLES.reduce((n, t) => n + counts[t], 0) : Infinity;
}

/**
 * Open a workspace for a CLI command that may create it, and run `fn` with it. Rule when the command
 * fails: 1. a workspace the command created (the folder was missing or empty) that holds no result yet
 * (RESULT_TABLES) is removed, so a command that fails before storing anything leaves nothing behind;
 * 2. otherwise the workspace is kept, and when the command stored a result before failing, the error
 * is followed by one line saying how to resume (`opts.resume`). An existing workspace is never removed.
 */
export async function withCommandWorkspace<T>(
  dir: string,
  fn: (ws: Workspace) => Promise<T>,
  opts: CommandWorkspaceOptions = {},
): Promise<T> {
  const abs = resolve(dir);
  // A file where the folder should be: openWorkspace says so in one line (it refuses a file, never overwrites one).
  if (existsSync(abs) && !statSync(abs).isDirectory()) return withWorkspaceOpenedFirst(abs, fn);
  const isNew = !existsSync(abs) || readdirSync(abs).length === 0;
  const folderExisted = existsSync(abs);
  const ws = await openWorkspace(abs);
  const before = isNew ? 0 : await results(ws);
  let open = true;
  const close = () => {
    if (open) {
      open = false;
      ws.close();
    }
  };
  try {
    return await fn(ws);
  } catch (e) {
    const after = await results(ws);
    close();
    if (isNew && after === 0) {
      if (folderExisted) for (const f of readdirSync(abs)) rmSync(resolve(abs, f), { recursive: true, force: true });
      else rmSync(abs, { recursive: true, force: true });
    } else if (after > before) {
      const line = opts.resume?.();
      if (line) addResumeHint(e, `workspace ${abs} keeps what was stored; to resume: ${line}`);
    }
    throw e;
  } finally {
    close();
  }
}

const SHELL_SAFE = /^[\w@%+=:,./-]+$/;

/**
 * This process's own command line as `openmle …`, shell-quoted, with `flag` set to `value` (an earlier
 * `flag X` or `flag=X` is dropped): what a person reruns to resume, e.g. with `--resume run-1a2b`.
 */
export function sameCommand(argv: readonly string[], flag?: string, value?: string): string {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (flag && argv[i] === flag) i++;
    else if (!(flag && argv[i]!.startsWith(`${flag}=`))) args.push(argv[i]!);
  }
  if (flag && value !== undefined) args.push(flag, value);
  return ["openmle", ...args].map((a) => (SHELL_SAFE.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(" ");
}

/** Open (which fails with openWorkspace's own error for a path that is not a folder), then run `fn`. */
async function withWorkspaceOpenedFirst<T>(abs: string, fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const ws = await openWorkspace(abs);
  try {
    return await fn(ws);
  } finally {
    ws.close();
  }
}
