// The power line of a registration (issue 60 item 3): from the development suite's rows, the smallest effect
// A − B the plan's design detects at 80 % power, two-sided α = 0.05. Pure; the rows come from dev-rows.ts.

/** z_{0.975}: the two-sided 5 % critical value of the standard normal. */
export const Z_975 = 1.959963984540054;
/** z_{0.80}: 80 % power. */
export const Z_80 = 0.8416212335729143;

/** One per-draw value of the measure on a dev task: a draft's or a seed's, of one row set and policy. */
export interface DevValue {
  /** The row set it belongs to (an experiment run and arm, or a loop's row set and generation). */
  readonly source: string;
  /** The policy it measures, as an arm names it (params set, checkpoint name, …), to pair arms A and B. */
  readonly policy: string;
  readonly taskId: string;
  readonly value: number;
}

/** Unbiased sample variance s² = Σ (x − x̄)² / (n − 1); null for n < 2. */
export function sampleVariance(xs: readonly number[]): number | null {
  const n = xs.length;
  if (n < 2) return null;
  const m = xs.reduce((s, x) => s + x, 0) / n;
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1);
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) out.set(key(x), [...(out.get(key(x)) ?? []), x]);
  return out;
}

/**
 * Within-task variance across draws, pooled over dev tasks:
 *     σ̄² = mean_t [ mean_{s on t} s²_{s,t} ]
 * s²_{s,t} = sampleVariance of row set s's values on task t (row sets with n ≥ 2 values); tasks with none are
 * left out. null when no (row set, task) has two values.
 */
export function withinTaskVariance(
  values: readonly DevValue[],
): { readonly sigma2: number; readonly tasks: number } | null {
  const perTask: number[] = [];
  for (const rows of groupBy(values, (v) => v.taskId).values()) {
    const vars = [...groupBy(rows, (v) => v.source).values()]
      .map((g) => sampleVariance(g.map((v) => v.value)))
      .filter((v): v is number => v !== null);
    if (vars.length) perTask.push(mean(vars));
  }
  return perTask.length ? { sigma2: mean(perTask), tasks: perTask.length } : null;
}

/**
 * Between-task variance of the paired effect A − B, by the method of moments on the dev tasks both policies have
 * values on (n_A,t, n_B,t ≥ 2):
 *     δ_t = x̄_{A,t} − x̄_{B,t}
 *     τ²  = max(0, s²_δ − mean_t( s²_{A,t} / n_{A,t} + s²_{B,t} / n_{B,t} ))
 * s²_δ the sample variance of δ_t over those tasks (the part the draws' noise explains is taken off). null when
 * fewer than 2 tasks have both.
 */
export function betweenTaskVariance(
  values: readonly DevValue[],
  policyA: string,
  policyB: string,
): { readonly tau2: number; readonly tasks: number } | null {
  const deltas: number[] = [];
  const noise: number[] = [];
  for (const rows of groupBy(values, (v) => v.taskId).values()) {
    const a = rows.filter((v) => v.policy === policyA).map((v) => v.value);
    const b = rows.filter((v) => v.policy === policyB).map((v) => v.value);
    const [va, vb] = [sampleVariance(a), sampleVariance(b)];
    if (va === null || vb === null) continue;
    deltas.push(mean(a) - mean(b));
    noise.push(va / a.length + vb / b.length);
  }
  const s2 = sampleVariance(deltas);
  return s2 === null ? null : { tau2: Math.max(0, s2 - mean(noise)), tasks: deltas.length };
}

/**
 * Minimum detectable effect of the mean paired per-task difference with T tasks and D draws per task and arm:
 *     MDE = (z_{0.975} + z_{0.80}) · sqrt( 2σ̄² / D + τ² ) / sqrt(T)
 * i.e. mean_t(σ²_t · 2 / D) with every plan task's σ²_t taken as the dev tasks' σ̄² (the plan's own tasks are
 * sealed), each arm's draws independent (the shared draw seeds' correlation ignored: conservative), τ² the
 * between-task variance of the effect (0 when not estimated).
 */
export function minimumDetectableEffect(o: {
  readonly sigma2: number;
  readonly tau2: number;
  readonly tasks: number;
  readonly draws: number;
}): number {
  return ((Z_975 + Z_80) * Math.sqrt((2 * o.sigma2) / o.draws + o.tau2)) / Math.sqrt(o.tasks);
}

/**
 * The win rate's per-task statistic d_t = P_t(A ≻ B) − ½ has no per-draw value: its MDE reads the spread of d_t
 * over the dev tasks where both policies have rows (at the dev rows' draws):
 *     MDE = (z_{0.975} + z_{0.80}) · s_d / sqrt(T)
 * null when fewer than 2 dev tasks have d_t.
 */
export function winRateMde(diffs: readonly number[], tasks: number): number | null {
  const s2 = sampleVariance(diffs);
  return s2 === null ? null : ((Z_975 + Z_80) * Math.sqrt(s2)) / Math.sqrt(tasks);
}

/** What the power line says, before it is put in words. */
export type PowerEstimate =
  | {
      readonly kind: "mde";
      readonly measure: string;
      readonly tasks: number;
      readonly draws: number;
      readonly mde: number;
      /** null for the win rate (its spread is read whole). */
      readonly sigma2: number | null;
      readonly tau2: number | null;
      readonly devTasks: number;
      /** Where τ² (or the win rate's spread) came from. */
      readonly tauFrom: string;
    }
  | { readonly kind: "none"; readonly reason: string };

const NO_DEV_ROWS =
  "no development rows to estimate power from: run the plan's arms on suite:dev first (openmle experiment run on " +
  "a dev plan)";

/**
 * The power estimate of a plan comparing policies A and B on `measure` over T tasks with D draws each, from dev
 * values (per-draw values; for the win rate, `winDiffs` = d_t of A and B on the dev tasks):
 *  1. win rate: MDE from the spread of d_t (winRateMde); without d_t on 2 tasks, none.
 *  2. otherwise σ̄² from every dev value (withinTaskVariance); none without it;
 *  3. τ² from A's and B's dev values when both have values on 2 tasks, else 0 (and the line says so);
 *  4. MDE = minimumDetectableEffect.
 */
export function powerEstimate(o: {
  readonly measure: string;
  readonly tasks: number;
  readonly draws: number;
  readonly values: readonly DevValue[];
  readonly policyA: string;
  readonly policyB: string;
  readonly winDiffs?: readonly number[];
}): PowerEstimate {
  if (o.measure === "win_rate") {
    const d = o.winDiffs ?? [];
    const mde = winRateMde(d, o.tasks);
    if (mde === null)
      return {
        kind: "none",
        reason:
          d.length || o.values.length
            ? `the win rate needs dev rows of both ${o.policyA} and ${o.policyB} ` +
              "on 2 or more dev tasks: run both arms on suite:dev first"
            : NO_DEV_ROWS,
      };
    const from = `the spread of P(A ≻ B) − ½ over ${d.length} dev tasks where both have rows`;
    return {
      kind: "mde",
      measure: o.measure,
      tasks: o.tasks,
      draws: o.draws,
      mde,
      sigma2: null,
      tau2: null,
      devTasks: d.length,
      tauFrom: from,
    };
  }
  const within = withinTaskVariance(o.values);
  if (!within) return { kind: "none", reason: NO_DEV_ROWS };
  const between = betweenTaskVariance(o.values, o.policyA, o.policyB);
  const tau2 = between?.tau2 ?? 0;
  const tauFrom = between
    ? `dev rows of ${o.policyA} and ${o.policyB} on ${between.tasks} tasks`
    : `0 assumed: no dev rows of both ${o.policyA} and ${o.policyB}`;
  const mde = minimumDetectableEffect({ sigma2: within.sigma2, tau2, tasks: o.tasks, draws: o.draws });
  return {
    kind: "mde",
    measure: o.measure,
    tasks: o.tasks,
    draws: o.draws,
    mde,
    sigma2: within.sigma2,
    tau2,
    devTasks: within.tasks,
    tauFrom,
  };
}

const g = (x: number) => x.toPrecision(3);
const n = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : "s"}`;

/** The power line in words, e.g. "power: with 40 tasks × 32 draws, the smallest … is 0.0412 (…)". */
export function powerLine(p: PowerEstimate, drawWord = "draws"): string {
  if (p.kind === "none") return `power: ${p.reason}`;
  const parts =
    p.sigma2 === null
      ? [p.tauFrom]
      : [
          `σ̄² ${g(p.sigma2)} within tasks over ${n(p.devTasks, "dev task")}`,
          `τ² ${g(p.tau2 ?? 0)} between tasks (${p.tauFrom})`,
        ];
  return (
    `power: with ${n(p.tasks, "task")} × ${p.draws} ${drawWord}, the smallest A − B on ${p.measure} detected at 80 % ` +
    `power (two-sided α 0.05) is ${g(p.mde)} (${parts.join("; ")})`
  );
}
