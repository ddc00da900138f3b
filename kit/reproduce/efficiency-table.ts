// The search-efficiency layout of a search experiment's cells (docs/paper-map.md): per arm its runs' nodes, prompt
// sizes, new-record updates and late Improve/Crossover share; then the first arm against the second on matched
// task-runs.
import { meanStd, relativeChange, searchEfficiency, type EffCall, type EffNode } from "../eval/index.js";
import { kitSource, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { referenceRows, type TableRow } from "./search-table.js";

/** What the layout reads of the cells' runs: their nodes and each node's prompt (cards.prompt_chars). */
export interface EfficiencyRows {
  readonly nodes: readonly EffNode[];
  readonly prompts: readonly EffCall[];
  readonly higherIsBetter: (runId: string) => boolean;
}

/** 12,345 → "12.3K", 1.2e6 → "1.20M". */
export const kilo = (x: number) =>
  !Number.isFinite(x)
    ? "–"
    : x >= 1e6
      ? `${(x / 1e6).toFixed(2)}M`
      : x >= 1e3
        ? `${(x / 1e3).toFixed(1)}K`
        : x.toFixed(0);
const fixed = (x: number, d: number) => (Number.isFinite(x) ? x.toFixed(d) : "–");
const share = (m: { n: number; mean: number }) => (m.n ? `${(100 * m.mean).toFixed(1)} %` : "–");
const pct = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)} %` : "–");

/** Totals of a set of runs: nodes, prompt characters, new records, and each run's late Improve/Crossover share. */
export function runTotals(runIds: readonly string[], rows: EfficiencyRows) {
  const ids = new Set(runIds);
  const nodes = rows.nodes.filter((n) => ids.has(n.run_id));
  const prompts = rows.prompts.filter((c) => ids.has(c.run_id));
  const eff = searchEfficiency(nodes, prompts, rows.higherIsBetter);
  const chars = prompts.reduce((t, c) => t + (c.prompt_chars ?? 0), 0);
  const records = eff.runs.reduce((t, r) => t + r.records, 0);
  const late = eff.runs.flatMap((r) =>
    r.late_improve_crossover_share === null ? [] : [r.late_improve_crossover_share],
  );
  return {
    runs: eff.runs.length,
    nodes: eff.runs.reduce((t, r) => t + r.nodes, 0),
    nodesPerRun: meanStd(eff.runs.map((r) => r.nodes)),
    chars,
    charsPerRun: meanStd(
      eff.runs.map((r) => prompts.filter((c) => c.run_id === r.run_id).reduce((t, c) => t + (c.prompt_chars ?? 0), 0)),
    ),
    records,
    /** New-record updates per 100K prompt characters, of the totals (not a mean of per-run ratios). */
    recordsPer100k: chars ? (1e5 * records) / chars : Number.NaN,
    improveP99: eff.operators.find((o) => o.operator === "improve")?.prompt_chars_p99 ?? Number.NaN,
    late: meanStd(late),
    /** Runs without any prompt size (cards written before migration 10). */
    unmeasured: eff.runs.filter((r) => !prompts.some((c) => c.run_id === r.run_id && c.prompt_chars !== null)).length,
  };
}

/**
 * One row per arm over its runs: nodes per run and prompt characters per run (mean ± population std over runs),
 * new-record updates per 100K prompt characters (Σ records / Σ characters), the Improve prompts' p99, and the
 * late Improve/Crossover share of validation gains (eval's lateShare; mean over runs with any gain). Then, when
 * the owner has two arms or more, the first against the second on task-runs matched by task and repeat:
 * relative changes (first − second)/|second| of Σ nodes, Σ characters and records per character, the second's
 * Improve p99 → the first's, as the paper reports OpenMLE-Evo against AIRA-Evo.
 */
export function efficiencyTable(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
  rows: EfficiencyRows,
): TableRow[] {
  const arms = owner.presets[preset]!.arms;
  const source = kitSource(owner, preset);
  const kit: TableRow[] = arms.map((arm) => {
    const t = runTotals(
      cells.filter((c) => c.arm === arm.id).map((c) => c.runId),
      rows,
    );
    const ms = (m: { n: number; mean: number; std: number }, f: (x: number) => string) =>
      m.n ? `${f(m.mean)} ± ${f(m.std)}` : "–";
    return {
      source,
      row: arm.label,
      values: {
        runs: String(t.runs),
        nodes: ms(t.nodesPerRun, (x) => x.toFixed(1)),
        tokens: t.unmeasured ? `– (${t.unmeasured} runs without prompt sizes)` : `${ms(t.charsPerRun, kilo)} chars`,
        "new-record-updates-per-token": `${fixed(t.recordsPer100k, 2)} per 100K chars`,
        "improve-prompt-p99": `${kilo(t.improveP99)} chars`,
        "late-gain-share": t.late.n
          ? `${(100 * t.late.mean).toFixed(1)} % (${t.late.n} run${t.late.n === 1 ? "" : "s"})`
          : "–",
      },
    };
  });
  if (arms.length < 2) return [...kit, ...referenceRows(spec)];
  const [a, b] = [arms[0]!, arms[1]!];
  const key = (c: CellResult) => `${c.task}\u0000${c.repeat}`;
  const bKeys = new Set(cells.filter((c) => c.arm === b.id).map(key));
  const aCells = cells.filter((c) => c.arm === a.id && bKeys.has(key(c)));
  const matched = new Set(aCells.map(key));
  const ta = runTotals(
    aCells.map((c) => c.runId),
    rows,
  );
  const tb = runTotals(
    cells.filter((c) => c.arm === b.id && matched.has(key(c))).map((c) => c.runId),
    rows,
  );
  const compared: TableRow = {
    source,
    row: `${a.label} vs ${b.label}, ${matched.size} matched task-runs`,
    values: {
      nodes: pct(relativeChange(tb.nodes, ta.nodes)),
      tokens: pct(relativeChange(tb.chars, ta.chars)),
      "new-record-updates-per-token": pct(relativeChange(tb.recordsPer100k, ta.recordsPer100k)),
      "improve-prompt-p99": `${kilo(tb.improveP99)} → ${kilo(ta.improveP99)} chars`,
      "late-gain-share": `${share(ta.late)} vs ${share(tb.late)}`,
    },
  };
  return [...kit, compared, ...referenceRows(spec)];
}
