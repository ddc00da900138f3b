// `openmle runs stats`: the trajectory analysis of one run (kit/eval run-stats.ts) as tables or JSON.
import type { Command } from "commander";
import {
  GainShareConfig,
  loadTrajectories,
  runStats,
  type ChampionDraftState,
  type ChampionVsDraft,
  type RunStats,
  type ValidationScheme,
  type ValidationTransfer,
} from "../eval/index.js";
import { openWorkspace } from "../store/index.js";
import { formatScore, formatTable } from "./format.js";
import { numberFlag } from "./numeric-flag.js";
import { output } from "./run-cli.js";
import { resolveRunFlag } from "./run-flag.js";

/** The analysis of one run of the workspace at `dir` (`run`: its id, or absent when the workspace holds one run). */
export async function runsStats(dir: string, run?: string, lateFrom = 0.5): Promise<RunStats> {
  const cfg = GainShareConfig.parse({ lateFrom });
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const runs = await loadTrajectories(ws);
    const id = await resolveRunFlag(ws, run);
    return runStats(
      runs.find((r) => r.run_id === id)!,
      cfg,
    );
  } finally {
    ws.close();
  }
}

const pct = (x: number | null) => (x === null ? "—" : `${(100 * x).toFixed(1)}%`);
const ratio = (k: number, n: number, rate: number | null) => (rate === null ? "—" : `${k}/${n} (${pct(rate)})`);

/** The human view: per-operator table, the records of the best-score curve, the lineage and the gain share. */
export function renderRunStats(s: RunStats): string {
  const g = s.gain_share;
  const records = s.curve.filter((p) => p.record);
  const ops = [...new Set(g.rows.map((r) => r.operator))];
  const share = (op: string, phase: string) => g.rows.find((r) => r.operator === op && r.phase === phase)!.share;
  return [
    `run ${s.run_id}: ${s.harness} on ${s.task_id} (${s.higher_is_better ? "higher" : "lower"} is better), ` +
      `${s.nodes} nodes, champion ${s.champion_node_id ?? "none"} (steps 0-based; gains in the metric's ` +
      "units, > 0 = better)",
    "",
    "## per operator (gain over the best valid parent)",
    formatTable(
      s.operators.map((o) => ({
        operator: o.operator,
        nodes: o.nodes,
        valid: ratio(o.valid, o.nodes, o.valid_rate),
        "beat parent": ratio(o.beat_parent, o.with_valid_parent, o.beat_parent_rate),
        "mean gain": formatScore(o.mean_gain),
        "total gain": formatScore(o.total_gain),
      })),
    ),
    "",
    `## best-score curve: ${records.length} records in ${s.curve.length} steps`,
    records.length
      ? formatTable(
          records.map((p) => ({
            step: p.step,
            node: p.node_id,
            operator: p.operator,
            best: formatScore(p.best),
            gain: formatScore(p.gain),
          })),
        )
      : "(no node scored)",
    "",
    `## champion lineage (${s.lineage.length} nodes, first draft to champion)`,
    s.lineage.length
      ? formatTable(
          s.lineage.map((l) => ({
            step: l.step,
            node: l.node_id,
            operator: l.operator,
            score: formatScore(l.valid_score),
            "gain over parent": formatScore(l.gain),
          })),
        )
      : "(no champion)",
    "",
    `## share of validation gains (total ${formatScore(g.total_gain)}; late = steps ${g.late_from_step}–` +
      `${Math.max(g.late_from_step, g.step_budget - 1)} of a ${g.step_budget}-step budget)`,
    formatTable(ops.map((op) => ({ operator: op, early: pct(share(op, "early")), late: pct(share(op, "late")) }))),
    `late improve/crossover: ${pct(g.late_improve_crossover_share)} of validation gains ` +
      `(improve/crossover over the whole run: ${pct(g.improve_crossover_share)})`,
    "",
    ...transferLines(s.transfer),
  ].join("\n");
}

const CVD_READING: Record<ChampionDraftState, string> = {
  agree: "the improvement holds on the hidden test",
  disagree: "⚠ the improvement holds on validation only: on the hidden test the champion is not better",
  "no-test": "no hidden test score for the champion or the best draft (the task's test split was not scored)",
  "no-gain": "the champion does not beat the best draft on validation",
  "no-draft": "no draft produced a validation score",
  "no-champion": "no node produced a validation score",
};

/**
 * Validation → test transfer: the champion against the best draft on both splits (with the validation scheme
 * each score came from), the node best on the hidden test, and what picking by validation cost there.
 */
function transferLines(t: ValidationTransfer): string[] {
  const c = t.champion_vs_draft;
  const side = (label: string, x: ChampionVsDraft["champion"], scheme: ValidationScheme | null) =>
    x
      ? {
          "": label,
          node: x.nodeId,
          validation: formatScore(x.valid),
          "hidden test": formatScore(x.test),
          "validated by": scheme?.label ?? "unknown",
        }
      : null;
  const rows = [
    side("best draft", c.bestDraft, t.best_draft_scheme),
    side("champion", c.champion, t.champion_scheme),
  ].filter((r): r is NonNullable<typeof r> => r !== null);
  if (c.validGain !== null)
    rows.push({
      "": "gain (> 0 better)",
      node: "",
      validation: formatScore(c.validGain),
      "hidden test": formatScore(c.testGain),
      "validated by": "",
    });
  const b = t.best_on_test;
  return [
    "## validation → hidden test transfer (champion vs the best draft)",
    ...(rows.length ? [formatTable(rows)] : []),
    CVD_READING[c.state],
    ...(b
      ? [
          `best node on the hidden test: ${b.node_id} (${b.operator}) ${formatScore(b.test)}; the champion leaves ` +
            `${formatScore(t.regret)} on the test (regret, metric units)`,
        ]
      : []),
    `over ${t.points.length} nodes with both scores: validation vs test rank correlation ρ ` +
      `${t.spearman === null ? "—" : t.spearman.toFixed(2)}, mean optimism ${formatScore(t.optimism)} ` +
      "(validation minus test, > 0 = validation promised more)",
  ];
}

export function registerRunsStats(runs: Command): void {
  runs
    .command("stats")
    .description(
      "One run's trajectory: per-operator valid and beat-parent rates and gains, the best-score curve, " +
        "the champion's lineage, the share of validation gains by operator and phase, " +
        "the champion vs the best draft on validation and hidden test",
    )
    .requiredOption("--workspace <dir>", "workspace folder")
    .option("--run <id>", "run id (default: the workspace's only run)")
    .option("--late-from <fraction>", "where the late phase starts, as a fraction of the step budget", "0.5")
    .option("--json", "machine-readable output (snake_case keys, full-precision numbers)")
    .action(async (o: { workspace: string; run?: string; lateFrom: string; json?: boolean }) => {
      const lateFrom = numberFlag("late-from", o.lateFrom, { min: 0, max: 1 });
      const s = await runsStats(o.workspace, o.run, lateFrom);
      output(!!o.json, s, () => renderRunStats(s));
    });
}
