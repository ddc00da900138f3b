import { z } from "zod";
import { bestScoreCurve } from "./trajectory-curve.js";
import { TRAJECTORY_OPERATORS, type TrajectoryRun } from "./trajectory-node.js";

/**
 * The share of validation gains by operator and budget phase, as the paper reports it ("late Improve/Crossover
 * produce 85.0 % of validation gains"; docs/paper-map.md: Long-horizon cases). A validation gain is what a step adds
 * to the best validation score so far, gain_t of the best-score curve (trajectory-curve.ts), in the metric's units;
 * the paper does not define "late", so the phase boundary is a setting: with B the step budget (the run's configured
 * steps, else the steps it made, last step + 1) and f = `lateFrom`,
 *   late_from_step = ⌈f·B⌉,  phase(t) = late when t ≥ late_from_step, else early (steps are 0-based);
 *   G = Σ_t gain_t,  share(o, p) = Σ_{t : op_t = o, phase(t) = p} gain_t / G   (null when G = 0);
 *   late_improve_crossover_share = share(improve, late) + share(crossover, late);
 *   improve_crossover_share      = the same over both phases (kit/eval search-efficiency's lateShare, which
 *                                  counts every gain after the first valid node as late).
 */
export const GainShareConfig = z
  .object({
    lateFrom: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe("Where the late phase starts, as a fraction of the step budget (0.5: the second half of the steps)."),
  })
  .strict();
export type GainShareConfig = z.infer<typeof GainShareConfig>;

export type Phase = "early" | "late";

export interface GainShareRow {
  readonly operator: string;
  readonly phase: Phase;
  /** Σ gain_t of the operator's steps in the phase (metric units, ≥ 0). */
  readonly gain: number;
  readonly records: number;
  readonly share: number | null;
}

export interface GainShare {
  readonly step_budget: number;
  readonly late_from_step: number;
  readonly total_gain: number;
  readonly rows: readonly GainShareRow[];
  readonly late_improve_crossover_share: number | null;
  readonly improve_crossover_share: number | null;
}

export function gainShare(run: TrajectoryRun, cfg: Partial<GainShareConfig> = {}): GainShare {
  const { lateFrom } = GainShareConfig.parse(cfg);
  const curve = bestScoreCurve(run);
  const budget = run.step_budget ?? (curve.length ? Math.max(...curve.map((p) => p.step)) + 1 : 0);
  const lateFromStep = Math.ceil(lateFrom * budget);
  const total = curve.reduce((a, p) => a + p.gain, 0);
  const ops = [...TRAJECTORY_OPERATORS, ...new Set(curve.map((p) => p.operator))].filter(
    (o, i, a) => a.indexOf(o) === i,
  );
  const rows = ops.flatMap((operator) =>
    (["early", "late"] as const).map((phase) => {
      const own = curve.filter(
        (p) => p.operator === operator && p.gain > 0 && (p.step >= lateFromStep ? "late" : "early") === phase,
      );
      const gain = own.reduce((a, p) => a + p.gain, 0);
      return { operator, phase, gain, records: own.length, share: total > 0 ? gain / total : null };
    }),
  );
  const sum = (pred: (r: GainShareRow) => boolean) =>
    total > 0 ? rows.filter(pred).reduce((a, r) => a + r.gain, 0) / total : null;
  const ic = (r: GainShareRow) => r.operator === "improve" || r.operator === "crossover";
  return {
    step_budget: budget,
    late_from_step: lateFromStep,
    total_gain: total,
    rows,
    late_improve_crossover_share: sum((r) => ic(r) && r.phase === "late"),
    improve_crossover_share: sum(ic),
  };
}
