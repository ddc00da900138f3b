// The tables of bench/evo/context-arms.ts from its runs (pure: rows and baselines in, Markdown out).
import { median, normalizedScore, pairedBootstrap } from "../../kit/eval/index.js";

export interface ArmRun {
  task: string;
  modality: string;
  metric: string;
  higherIsBetter: boolean;
  arm: string;
  seed: number;
  nodes: number;
  validRate: number;
  bestValid: number | null;
  test: number | null;
  champion: string | null;
  championOperator: string | null;
  /** Σ validation gains of new records after the first valid node (metric units). */
  totalGain: number;
  /** Share of those gains made by Improve and Crossover (null when the run gained nothing after its first record). */
  icShare: number | null;
  nonDraftBeats: boolean;
  wallS: number;
  runId: string;
}

type Baselines = Record<string, { trivial: number | null; reference: number | null }>;
const f = (x: number | null | undefined, d = 3) =>
  x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d);
const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : Number.NaN);

export function contextTable(rows: readonly ArmRun[], baselines: Baselines, arms: readonly string[]): string {
  const norm = (r: ArmRun) => {
    const b = baselines[r.task];
    return b && b.trivial !== null && b.reference !== null
      ? normalizedScore(r.test, { trivial: b.trivial, reference: b.reference }, r.higherIsBetter)
      : null;
  };
  /** Test gain over the trivial baseline relative to it (> 0 better): defined where normalised is not (reference
   * no better than trivial). */
  const rel = (r: ArmRun) => {
    const t = baselines[r.task]?.trivial;
    if (t === null || t === undefined || r.test === null || t === 0) return null;
    return ((r.higherIsBetter ? 1 : -1) * (r.test - t)) / Math.abs(t);
  };
  const tasks = [...new Set(rows.map((r) => r.task))];
  const of = (arm: string, task?: string) => rows.filter((r) => r.arm === arm && (!task || r.task === task));
  /** Per task: the mean normalised test over the seeds both arms ran (identical seeds). */
  const taskMean = (arm: string, task: string, seeds?: Set<number>, metric: (r: ArmRun) => number | null = norm) => {
    const xs = of(arm, task)
      .filter((r) => !seeds || seeds.has(r.seed))
      .map(metric)
      .filter((x): x is number => x !== null && Number.isFinite(x));
    return xs.length ? mean(xs) : null;
  };
  const out = [
    `Tasks: ${tasks.length} (${[...new Set(rows.map((r) => r.modality))].join(", ")}); runs: ${rows.length}.`,
    "",
    "| arm | runs | normalised test (mean over tasks) | test gain over trivial (mean over tasks) | valid rate | Improve/Crossover share of gains (median) | " +
      "runs with gains | non-Draft beats best draft (valid + test) | wall s per run |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const arm of arms) {
    const rs = of(arm);
    if (!rs.length) continue;
    const tm = tasks.map((t) => taskMean(arm, t)).filter((x): x is number => x !== null);
    const tr = tasks.map((t) => taskMean(arm, t, undefined, rel)).filter((x): x is number => x !== null);
    const shares = rs.map((r) => r.icShare).filter((x): x is number => x !== null);
    out.push(
      `| ${arm} | ${rs.length} | ${f(mean(tm))} (${tm.length} tasks) | ${pct(mean(tr))} (${tr.length}) | ` +
        `${pct(mean(rs.map((r) => r.validRate)))} | ` +
        `${shares.length ? pct(median(shares)) : "–"} | ${shares.length} | ${rs.filter((r) => r.nonDraftBeats).length} ` +
        `of ${rs.length} | ${f(mean(rs.map((r) => r.wallS)), 0)} |`,
    );
  }
  const pairs: [string, string][] = [];
  for (const h of ["openmle", "aira-evo", "aide", "mcts"]) pairs.push([`${h}:on`, `${h}:off`]);
  pairs.push(
    ["openmle:on", "aira-evo:on"],
    ["openmle:off", "aira-evo:off"],
    ["openmle:on", "aide:on"],
    ["openmle:on", "mcts:on"],
  );
  for (const [label, metric] of [
    ["normalised test", norm],
    ["test gain over trivial", rel],
  ] as const) {
    out.push(
      "",
      `Paired per task at identical seeds (A − B in ${label}; 95 % bootstrap interval over tasks):`,
      "",
      "| A − B | tasks | mean | 95 % interval | excludes 0 | A ahead / behind / level | identical champions |",
      "|---|---|---|---|---|---|---|",
    );
    for (const [x, y] of pairs) {
      if (!arms.includes(x) || !arms.includes(y)) continue;
      const diffs: number[] = [];
      let same = 0;
      let pairsN = 0;
      for (const t of tasks) {
        const seeds = new Set(
          of(x, t)
            .map((r) => r.seed)
            .filter((s) => of(y, t).some((r) => r.seed === s)),
        );
        for (const s of seeds) {
          pairsN++;
          if (of(x, t).find((r) => r.seed === s)?.champion === of(y, t).find((r) => r.seed === s)?.champion) same++;
        }
        const ax = taskMean(x, t, seeds, metric);
        const by = taskMean(y, t, seeds, metric);
        if (seeds.size && ax !== null && by !== null) diffs.push(ax - by);
      }
      const b = pairedBootstrap(diffs);
      if (!b) continue;
      out.push(
        `| ${x} − ${y} | ${b.n} | ${f(b.mean, 4)} | [${f(b.lo, 4)}, ${f(b.hi, 4)}] | ` +
          `${b.lo > 0 || b.hi < 0 ? "yes" : "no"} | ${b.wins} / ${b.losses} / ${b.ties} | ${same} of ${pairsN} |`,
      );
    }
  }
  out.push(
    "",
    "Per task (test gain over trivial, mean over seeds; IC = Improve/Crossover share of validation gains, median " +
      "over runs):",
    "",
    `| task (metric) | ${arms.map((x) => `${x} | IC`).join(" | ")} |`,
    `|---|${arms.map(() => "---|---").join("|")}|`,
  );
  for (const t of tasks) {
    const r0 = rows.find((r) => r.task === t)!;
    const cells = arms.map((arm) => {
      const sh = of(arm, t)
        .map((r) => r.icShare)
        .filter((x): x is number => x !== null);
      const g = taskMean(arm, t, undefined, rel);
      return `${g === null ? "–" : pct(g)} | ${sh.length ? pct(median(sh)) : "–"}`;
    });
    out.push(`| ${t} (${r0.metric}${r0.higherIsBetter ? "↑" : "↓"}) | ${cells.join(" | ")} |`);
  }
  return `${out.join("\n")}\n`;
}
