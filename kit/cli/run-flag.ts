// `--run` of every command that looks at one search run: optional where the workspace holds one run.
import { runNodeCounts } from "../evo/index.js";
import { peekConfirmIds } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { printableLine } from "../util/index.js";
import { UsageError } from "./run-cli.js";

/**
 * The run a command works on. Rule: a given `run` must be in the workspace; without one, the
 * workspace's only run is used. Otherwise one usage error: no runs (and how to start one), an unknown
 * run, or several runs, each listed with its harness and status so the next command can name one. Runs on tasks of
 * the sealed suite:confirm are not there for these commands: naming one says to read it through its experiment.
 */
export async function resolveRunFlag(ws: Workspace, run?: string): Promise<string> {
  const sealed = peekConfirmIds();
  const all = await runNodeCounts(ws);
  const onConfirm = all.find((r) => r.run_id === run && sealed.has(r.task_id));
  if (onConfirm)
    throw new UsageError(
      `run "${printableLine(run!)}" searched ${onConfirm.task_id}, a task of the sealed suite:confirm: read it ` +
        "through its registered experiment (openmle experiment list; openmle experiment show ID)",
    );
  const runs = all.filter((r) => !sealed.has(r.task_id));
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
