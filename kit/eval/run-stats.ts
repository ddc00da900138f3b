// Loads runs' trajectories from a workspace and computes the analysis helpers' figures for each.
import type { ChampionVsDraft } from "./champion-vs-draft.js";
import { rowsToDanfo, type Workspace } from "../store/index.js";
import { bestScoreCurve, type CurvePoint } from "./trajectory-curve.js";
import { gainShare, type GainShare, type GainShareConfig } from "./trajectory-gain-share.js";
import { championLineage, championOf, type LineageStep } from "./trajectory-lineage.js";
import type { TrajectoryRun } from "./trajectory-node.js";
import { operatorStats, type OperatorStatsRow } from "./trajectory-operators.js";
import { readTrajectoryNodes, readTrajectoryRuns } from "./trajectory-store.js";
import { validationTransfer, type ValidationTransfer } from "./validation-transfer.js";

/** The workspace's runs (or those of `runIds`) with their nodes; a task without a tasks row counts higher-is-better. */
export async function loadTrajectories(ws: Workspace, runIds?: readonly string[]): Promise<TrajectoryRun[]> {
  const runs = await readTrajectoryRuns(ws, runIds);
  const nodes = await readTrajectoryNodes(ws, runIds);
  return runs.map((r) => ({
    run_id: r.run_id,
    task_id: r.task_id,
    harness: r.harness,
    higher_is_better: r.higher_is_better ?? true,
    step_budget: r.step_budget === null ? null : Number(r.step_budget),
    champion_node_id: r.champion_node_id,
    nodes: nodes
      .filter((n) => n.run_id === r.run_id)
      .map((n) => ({ ...n, step: n.step === null ? null : Number(n.step), parents: [...n.parents] })),
  }));
}

/** Every analysis figure of one run. */
export interface RunStats {
  readonly run_id: string;
  readonly task_id: string;
  readonly harness: string;
  readonly higher_is_better: boolean;
  readonly nodes: number;
  readonly champion_node_id: string | null;
  readonly operators: OperatorStatsRow[];
  readonly curve: CurvePoint[];
  readonly lineage: LineageStep[];
  readonly gain_share: GainShare;
  /** Validation–test agreement: the champion's gain over the best draft on both splits (champion-vs-draft.ts). */
  readonly champion_vs_draft: ChampionVsDraft;
  /** Validation → test transfer: gain over the best draft, regret, optimism, ρ, schemes (validation-transfer.ts). */
  readonly transfer: ValidationTransfer;
}

export function runStats(run: TrajectoryRun, cfg: Partial<GainShareConfig> = {}): RunStats {
  const transfer = validationTransfer(run.nodes, run.higher_is_better, championOf(run));
  return {
    run_id: run.run_id,
    task_id: run.task_id,
    harness: run.harness,
    higher_is_better: run.higher_is_better,
    nodes: run.nodes.length,
    champion_node_id: championOf(run),
    operators: operatorStats(run),
    curve: bestScoreCurve(run),
    lineage: championLineage(run),
    gain_share: gainShare(run, cfg),
    champion_vs_draft: transfer.champion_vs_draft,
    transfer,
  };
}

/** runStats of the workspace's runs (or of `runIds`). */
export async function loadRunStats(
  ws: Workspace,
  runIds?: readonly string[],
  cfg: Partial<GainShareConfig> = {},
): Promise<RunStats[]> {
  return (await loadTrajectories(ws, runIds)).map((r) => runStats(r, cfg));
}

/** The runs' figures as danfojs DataFrames for notebooks, one row per run × item, with run_id and harness. */
export async function runStatsFrames(stats: readonly RunStats[]) {
  const tag = <T extends object>(pick: (s: RunStats) => readonly T[]) =>
    stats.flatMap((s) => pick(s).map((r) => ({ run_id: s.run_id, harness: s.harness, ...r })));
  return {
    operators: await rowsToDanfo(tag((s) => s.operators)),
    curve: await rowsToDanfo(tag((s) => s.curve)),
    lineage: await rowsToDanfo(tag((s) => s.lineage)),
    gainShare: await rowsToDanfo(tag((s) => s.gain_share.rows)),
    summary: await rowsToDanfo(
      stats.map(({ gain_share: g, ...s }) => ({
        run_id: s.run_id,
        harness: s.harness,
        nodes: s.nodes,
        champion_node_id: s.champion_node_id,
        step_budget: g.step_budget,
        late_from_step: g.late_from_step,
        total_gain: g.total_gain,
        late_improve_crossover_share: g.late_improve_crossover_share,
        improve_crossover_share: g.improve_crossover_share,
      })),
    ),
  };
}
