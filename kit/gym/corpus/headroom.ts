import { join } from "node:path";
import { z } from "zod";
import { GymError } from "../errors.js";
import { METRICS, type MetricDef } from "../metrics/registry.js";
import { runHarness } from "../package-harness.js";
import type { TaskPackage } from "../types.js";
import type { Headroom } from "./types.js";

/**
 * The headroom check of the funnel (issue 27): a constant baseline and a quick reference model must differ
 * on validation by a named margin, so that a policy's decisions can matter on the task.
 *
 *   h = (reference - constant) / (perfect - constant)
 *
 * with perfect the metric's best value (the registry's `best`: 1 for accuracy and AUC, 0 for errors and
 * log loss). The ratio is the same in either direction; it is 0 when the reference only matches the
 * constant, 1 when it is perfect, negative when it is worse than the constant (kept negative, never
 * clamped), and 0 when the constant is already perfect (nothing to gain). A task passes when h >= minNormalised.
 */
export const HeadroomConfig = z
  .object({
    /**
     * The margin: the reference model must close at least this share of the gap from the constant baseline
     * to a perfect score (0.05 = 5% of the way; e.g. accuracy 0.50 -> >= 0.525, rmse 10 -> <= 9.5).
     */
    minNormalised: z.number().default(0.05),
    /** Share of the public train rows held out for validation (the rest fit the models). */
    validationShare: z.number().gt(0).lt(1).default(0.25),
    /** Limit of the harness run (ms): past it, it and its children are stopped. */
    timeoutMs: z.number().int().positive().default(120_000),
  })
  .strict();
export type HeadroomConfig = z.infer<typeof HeadroomConfig>;

/** (reference - constant) / (perfect - constant) in the better direction; 0 when the constant is perfect. */
export function normalisedHeadroom(
  constant: number,
  reference: number,
  perfect: number,
  higherIsBetter: boolean,
): number {
  if (![constant, reference, perfect].every(Number.isFinite))
    throw new RangeError(
      `headroom needs finite scores; got constant ${constant}, reference ${reference}, perfect ${perfect}`,
    );
  const sign = higherIsBetter ? 1 : -1;
  const gap = sign * (perfect - constant);
  if (gap <= 0) return 0;
  return (sign * (reference - constant)) / gap;
}

export interface HeadroomVerdict {
  readonly pass: boolean;
  /** One line with the numbers, for the funnel's stage record. */
  readonly reason: string;
}

/** Pass when h.normalised >= cfg.minNormalised; the reason names the model, both scores and the share. */
export function headroomVerdict(h: Headroom, cfg: Partial<HeadroomConfig> = {}): HeadroomVerdict {
  const { minNormalised } = HeadroomConfig.parse(cfg);
  const pass = h.normalised >= minNormalised;
  return {
    pass,
    reason:
      `reference ${h.referenceModel} ${fmt(h.reference)} vs constant ${fmt(h.constant)}: ${fmt(h.normalised)} ` +
      `of the way to perfect (${pass ? ">=" : "below"} the ${fmt(minNormalised)} margin)`,
  };
}

/** Four significant digits, without trailing zeros. */
export function fmt(x: number): string {
  return String(Number(x.toPrecision(4)));
}

interface HarnessOut {
  readonly ok: boolean;
  readonly message?: string;
  readonly constant: number;
  readonly reference: number;
  readonly reference_model: string;
}

/**
 * Measure a package's headroom: python/headroom.py splits the public train table into fit / validation as
 * the package splits train / test, fits the constant and the quick models, and scores them with the
 * package's own utils/metric.py, in the package jail (reads data/public and utils/, writes nothing).
 */
export async function measureHeadroom(task: TaskPackage, cfg: Partial<HeadroomConfig> = {}): Promise<Headroom> {
  const c = HeadroomConfig.parse(cfg);
  const m = task.meta;
  const def =
    (METRICS as Record<string, MetricDef>)[m.metric] ?? (METRICS as Record<string, MetricDef>)[m.metricKind ?? ""];
  if (!def)
    throw new GymError(
      `headroom of ${task.dir}: metric "${m.metric}" is not in the registry, so its perfect score is unknown. ` +
        `Fix: build the task with a registry metric (kit/gym/metrics/registry.ts).`,
      task.dir,
    );
  const utils = join(task.dir, "utils");
  const r = await runHarness<HarnessOut>(
    "headroom.py",
    [
      task.publicDir,
      utils,
      JSON.stringify({
        id_column: m.idColumn,
        train_target: m.trainTarget,
        target_columns: m.targetColumns,
        modality: m.modality,
        metric: m.metric,
        output: def.output,
        higher_is_better: m.higherIsBetter,
        validation_share: c.validationShare,
      }),
    ],
    { stage: "check", file: join(utils, "metric.py"), read: [task.publicDir, utils] },
    { timeoutMs: c.timeoutMs },
  );
  if (!r.ok)
    throw new GymError(
      `headroom of ${task.dir} could not be measured: ${r.message}. Fix: the public train table must hold ` +
        `features a model can fit and both fit and validation rows after the split.`,
      task.dir,
    );
  return {
    constant: r.constant,
    reference: r.reference,
    referenceModel: r.reference_model,
    normalised: normalisedHeadroom(r.constant, r.reference, def.best, m.higherIsBetter),
  };
}
