// The tasks a checkpoint was trained on, from its stored lineage (issue 60: an arm's training must be disjoint from
// the plan's tasks by study). Read through kit/erl's functions: no SQL here.
import { loadCheckpoint, loadDataset, loopTaskSets, readRlRun } from "../erl/index.js";
import type { Workspace } from "../store/index.js";
import { BUILTIN_PARAM_SETS } from "./experiment-plan.js";

const BUILTIN = new Set<string>(BUILTIN_PARAM_SETS);

/**
 * The training tasks of checkpoint `name`: the union over its lineage (the checkpoint, its parent, …, up to a
 * built-in params set) of what each link was trained on:
 *   source loop  the loop's training tasks (loops.train_tasks of config.loop; the loop's SFT and RL used them)
 *   source sft   the task ids of its dataset's examples
 *   source rl    the tasks its trainRL run consumed groups of (rl_steps)
 *   otherwise (import, a missing loop, dataset or run, a checkpoint this kit cannot load)  "unknown"
 */
export async function checkpointTrainingTasks(ws: Workspace, name: string): Promise<string[] | "unknown"> {
  const out = new Set<string>();
  const seen = new Set<string>();
  let at: string | null = name;
  while (at !== null && !BUILTIN.has(at)) {
    if (seen.has(at)) return "unknown"; // a cycle: a broken lineage
    seen.add(at);
    let ck;
    try {
      ck = await loadCheckpoint(ws, at);
    } catch {
      return "unknown";
    }
    const tasks = await linkTasks(ws, ck.source, ck.dataset, ck.config);
    if (tasks === "unknown") return "unknown";
    for (const t of tasks) out.add(t);
    at = ck.parent;
  }
  return [...out].sort();
}

async function linkTasks(
  ws: Workspace,
  source: string,
  dataset: string | null,
  config: unknown,
): Promise<string[] | "unknown"> {
  if (source === "loop") {
    const loop = (config as { loop?: unknown } | null)?.loop;
    const sets = typeof loop === "string" ? await loopTaskSets(ws, loop) : null;
    return sets ? sets.train : "unknown";
  }
  if (source === "sft" && dataset) {
    try {
      return [...new Set((await loadDataset(ws, dataset)).map((e) => e.taskId))];
    } catch {
      return "unknown";
    }
  }
  if (source === "rl" && dataset) {
    const run = await readRlRun(ws, dataset);
    return run ? Object.keys(run.groupsPerTask) : "unknown";
  }
  return "unknown";
}
