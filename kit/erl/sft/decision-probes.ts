import {
  buildContext,
  endedRunIds,
  EvolveConfig,
  loadNodes,
  readStoredRun,
  upgradeStoredConfig,
  type EvoNode,
} from "../../evo/index.js";
import { loadTask, resolveTask, storedTaskDir } from "../../gym/index.js";
import type { TaskPackage } from "../../gym/types.js";
import { createGrammarPolicy, type GrammarChoice, type GrammarParams } from "../../policy/grammar/index.js";
import type { Operator, OperatorContext } from "../../policy/types.js";
import { programProbes } from "./sft-example.js";
import type { Workspace } from "../../store/index.js";
import { createRng } from "../../util/index.js";
import { ErlError } from "../errors.js";
import { draftContext } from "./parallel-drafts.js";

/** A program whose decisions could not be recovered, and why. */
export interface ProbeSkip {
  readonly runId: string;
  readonly nodeId: string;
  readonly reason: string;
}

/** Recorded decisions to score param sets on (decision-diff.ts `policyKl`), with where they came from. */
export interface ProbeSet {
  /** Every decision of every program gathered, with its options, decision features and context labels. */
  readonly probes: readonly GrammarChoice[];
  /** Programs whose decisions were gathered. */
  readonly programs: number;
  /** Programs left out: not written by the grammar policy, or a trace that does not fit its context. */
  readonly skipped: readonly ProbeSkip[];
  /** Run ids (stored probes) or task ids (fresh drafts) the probes came from. */
  readonly sources: readonly string[];
}

export { programProbes } from "./sft-example.js";

async function taskOf(ws: Workspace, taskId: string, cache: Map<string, TaskPackage>): Promise<TaskPackage> {
  const hit = cache.get(taskId);
  if (hit) return hit;
  const dir = await storedTaskDir(ws, taskId);
  try {
    const task = dir ? await loadTask(dir) : await resolveTask(taskId);
    cache.set(taskId, task);
    return task;
  } catch (e) {
    throw new ErlError(
      `task ${taskId} of a stored run cannot be loaded (${(e as Error).message.split("\n")[0]}): ` +
        `restore its folder, or leave its runs out`,
      { cause: e },
    );
  }
}

/** The context node `n` was written in, rebuilt from the nodes before it (as the SFT evolutionary path does). */
async function nodeContext(ws: Workspace, runId: string, cfg: EvolveConfig, nodes: readonly EvoNode[], n: EvoNode) {
  const budget = {
    remainingSteps: cfg.steps - n.step,
    remainingTimeS: cfg.maxWallS > 0 ? cfg.maxWallS : Infinity,
    perRunTimeLimitS: cfg.perRunTimeoutS,
  };
  const action = { operator: n.operator, parents: n.parents, island: n.island };
  return buildContext(
    ws,
    runId,
    cfg,
    action,
    nodes.filter((m) => m.step < n.step),
    budget,
    {},
  );
}

/**
 * Probe decisions from stored evolve runs: the runs `runs`, or every ended run of the tasks `tasks` (both may be
 * given; their union, oldest first). For each node with a grammar trace:
 * 1. rebuild the context it was written in (evo's buildContext over the nodes before it, no memory model);
 * 2. replay its trace there (`programProbes`) to recover each decision's options, features and labels.
 * Nodes written by another policy, or whose trace no longer fits, are listed in `skipped`. An unknown run id
 * throws (ErlError).
 */
export async function storedProbes(
  ws: Workspace,
  select: { readonly runs?: readonly string[]; readonly tasks?: readonly string[] },
): Promise<ProbeSet> {
  const ids = [...(select.runs ?? [])];
  if (select.tasks?.length) {
    const want = new Set(select.tasks);
    for (const id of await endedRunIds(ws)) {
      const r = await readStoredRun(ws, id);
      if (r && want.has(r.task_id) && !ids.includes(id)) ids.push(id);
    }
  }
  const tasks = new Map<string, TaskPackage>();
  const probes: GrammarChoice[] = [];
  const skipped: ProbeSkip[] = [];
  let programs = 0;
  for (const runId of ids) {
    const run = await readStoredRun(ws, runId);
    if (!run)
      throw new ErlError(
        `run "${runId}" is not in workspace ${ws.dir}: list runs with openmle runs list --workspace ${ws.dir}`,
      );
    const task = await taskOf(ws, run.task_id, tasks);
    const cfg = EvolveConfig.parse(run.config ? upgradeStoredConfig(JSON.parse(run.config)) : {});
    const nodes = await loadNodes(ws, runId);
    for (const n of nodes) {
      try {
        const got = programProbes(task, n.operator, await nodeContext(ws, runId, cfg, nodes, n), n.code);
        if (!got) skipped.push({ runId, nodeId: n.nodeId, reason: "no grammar trace (not written by the grammar)" });
        else {
          probes.push(...got);
          programs++;
        }
      } catch (e) {
        skipped.push({ runId, nodeId: n.nodeId, reason: (e as Error).message.split("\n")[0]! });
      }
    }
  }
  return { probes, programs, skipped, sources: ids };
}

/** FNV-1a of `seed#taskId`: one Rng stream per task, so adding tasks does not change another task's drafts. */
function taskSeed(seed: number, taskId: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const ch of `${seed}#${taskId}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/**
 * Fresh probe decisions without any stored run: `drafts` drafts per task sampled from `params` (the grammar
 * policy's Draft on an empty context; nothing is executed), each replayed through `programProbes` so the
 * decisions carry the same features and labels as stored ones. Deterministic given `seed`.
 */
export async function draftProbes(
  params: GrammarParams,
  tasks: readonly TaskPackage[],
  opts: { readonly drafts?: number; readonly seed?: number } = {},
): Promise<ProbeSet> {
  const policy = createGrammarPolicy(params);
  const ctx = draftContext(300);
  const probes: GrammarChoice[] = [];
  const drafts = opts.drafts ?? 8;
  for (const task of tasks) {
    const rng = createRng(taskSeed(opts.seed ?? 0, task.meta.id));
    for (let i = 0; i < drafts; i++) {
      const out = await policy.propose(task, "draft", ctx, rng);
      probes.push(...programProbes(task, "draft", ctx, out.code)!);
    }
  }
  return { probes, programs: drafts * tasks.length, skipped: [], sources: tasks.map((t) => t.meta.id) };
}
