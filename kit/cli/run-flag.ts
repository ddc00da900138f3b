// `--run` of every command that looks at one search run: optional where the workspace holds one run.
import { runNodeCounts } from "../evo/index.js";
import type { Workspace } from "../store/index.js";
import { printableLine } from "../util/index.js";
import { UsageError } from "./run-cli.js";

/**
 * The run a command works on. Rule: a given `run` must be in the workspace; without one, the
 * workspace's only run is used. Otherwise one usage error: no runs (and how to start one), an unknown
 * run, or several runs, each listed with its harness and status so the next command can name one.
 */
export async function resolveRunFlag(ws: Workspace, run?: string): Promise<string> {
  const runs = await runNodeCounts(ws);
  if (run !== undefined && runs.some((r) => r.run_id === run)) return run;
  if (run === undefined && runs.length === 1) return runs[0]!.run_id;
  if (runs.length === 0)
    throw new UsageError(
      `workspace ${ws.dir} holds no runs${run === undefined ? "" : ` (no run "${printableLine(run)}")`}: ` +
        `start one with openmle evolve --workspace ${ws.dir} --task <id>`,
    );
  const list = runs.map((r) => `${r.run_id} (${r.harness}, ${r.status})`).join(", ");
  if (run !== undefined)
    throw new UsageError(`run "${printableLine(run)}" is not in workspace ${ws.dir}; its runs: ${list}`);
  throw new UsageError(`workspace ${ws.dir} holds ${runs.length} runs: pass --run <id>, one of ${list}`);
}
