import { z } from "zod";
import type { ChangeKind, NodeView } from "../types.js";
import type { ContextEvidence } from "./context-evidence.js";
import type { FailureKind } from "./debug.js";
import type { ImproveEdit } from "./improve.js";
import type { GrammarModality } from "./spec.js";

/** Option features: option → the labels it carries under this context (options without labels are left out). */
export type OptionFeatures = Readonly<Record<string, readonly string[]>>;

export const ContextFeatureConfig = z
  .object({
    lateSteps: z.number().int().min(0).default(4).describe("At most this many steps left: the budget is late."),
    earlySteps: z.number().int().min(1).default(12).describe("At least this many steps left: the budget is early."),
    nearShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.25)
      .describe("A family whose best is within this share of the shown score range below the best is near."),
    crowdedSuccesses: z
      .number()
      .int()
      .min(1)
      .default(3)
      .describe("A family with this many shown successes is crowded (selection's novelty 1/sqrt(1+N) <= 0.5)."),
  })
  .strict();
export type ContextFeatureConfig = z.infer<typeof ContextFeatureConfig>;
export const DEFAULT_CONTEXT_FEATURES: ContextFeatureConfig = ContextFeatureConfig.parse({});

const phase = (ev: ContextEvidence, c: ContextFeatureConfig): "early" | "late" | null =>
  ev.stepsLeft === null ? null : ev.stepsLeft <= c.lateSteps ? "late" : ev.stepsLeft >= c.earlySteps ? "early" : null;

/** The card method family a single model of this family gets (the board's granularity). */
export function cardFamilyOf(family: string, modality: GrammarModality): string {
  if (family === "xgboost") return "xgboost";
  if (family === "torch_mlp" || family === "torch_cnn") return "neural_net";
  return modality === "image" ? "cv" : modality === "text" ? "nlp" : "sklearn";
}

/**
 * Labels of a model-family option f (Draft's model, Improve's swap_to / add_family, Debug's swap_to):
 * - untried: no shown node names f; failed1 / failed2: one / two or more failures and no success;
 *   failed:<kind>: each failure kind of f; board_failed2: f's card family tried twice on the board, never succeeded;
 * - best: f holds the best shown score; near / far: f's best is within / beyond nearShare of the shown range
 *   (best − worst) below the best; mean_far: f's mean is beyond half the range below the best;
 * - crowded: at least crowdedSuccesses shown successes;
 * - early:untried, late:untried, early:best, late:best: the same under the budget's phase.
 */
export function familyOptionFeatures(
  ev: ContextEvidence,
  options: readonly string[],
  modality: GrammarModality,
  c: ContextFeatureConfig = DEFAULT_CONTEXT_FEATURES,
): OptionFeatures {
  const ph = phase(ev, c);
  const range = ev.best !== null && ev.worst !== null ? ev.best - ev.worst : 0;
  const out: Record<string, string[]> = {};
  for (const f of options) {
    const e = ev.families.get(f);
    const labels: string[] = [];
    if (!e) labels.push("untried", ...(ph ? [`${ph}:untried`] : []));
    else {
      if (e.succeeded === 0 && e.failed >= 2) labels.push("failed2");
      else if (e.succeeded === 0 && e.failed === 1) labels.push("failed1");
      labels.push(...e.failureKinds.map((k) => `failed:${k}`));
      if (e.best !== null && ev.best !== null) {
        const rel = range > 0 ? (ev.best - e.best) / range : 0;
        if (rel <= 0) labels.push("best", ...(ph ? [`${ph}:best`] : []));
        else labels.push(rel <= c.nearShare ? "near" : "far");
        if (e.mean !== null && range > 0 && (ev.best - e.mean) / range > 0.5) labels.push("mean_far");
      }
      if (e.succeeded >= c.crowdedSuccesses) labels.push("crowded");
    }
    const b = ev.boardFamilies.get(cardFamilyOf(f, modality));
    if (b && b.succeeded === 0 && b.tried >= 2) labels.push("board_failed2");
    if (labels.length) out[f] = labels;
  }
  return out;
}

/** The change kind an Improve edit makes. */
export const EDIT_CHANGE: Record<ImproveEdit, ChangeKind> = {
  tune: "model",
  swap_model: "model",
  add_model: "model",
  drop_model: "model",
  features: "features",
  validation: "validation",
  more_data: "data",
};
const EXPLORE_EDITS: ReadonlySet<string> = new Set(["swap_model", "add_model"]);

/**
 * Labels of Improve's edit options: gained (its change kind has the most shown positive gains, at least one);
 * stalled (no positive gain and at least two shown gains <= 0); parent_crowded and parent_far on swap_model (the
 * parent's first model family is crowded / far from the best); late:tune (exploit late) and early:explore
 * (swap_model, add_model early).
 */
export function editOptionFeatures(
  ev: ContextEvidence,
  options: readonly string[],
  parentFamily: string | null,
  c: ContextFeatureConfig = DEFAULT_CONTEXT_FEATURES,
): OptionFeatures {
  const pos = (k: ChangeKind) => (ev.gains.get(k) ?? []).filter((g) => g > 0).length;
  const nonPos = (k: ChangeKind) => (ev.gains.get(k) ?? []).filter((g) => g <= 0).length;
  const most = Math.max(0, ...options.map((o) => pos(EDIT_CHANGE[o as ImproveEdit] ?? "none")));
  const fam = parentFamily ? famLabels(ev, parentFamily, c) : [];
  const ph = phase(ev, c);
  const out: Record<string, string[]> = {};
  for (const o of options) {
    const k = EDIT_CHANGE[o as ImproveEdit] ?? "none";
    const labels: string[] = [];
    if (most > 0 && pos(k) === most) labels.push("gained");
    if (pos(k) === 0 && nonPos(k) >= 2) labels.push("stalled");
    if (o === "swap_model") labels.push(...fam.map((l) => `parent_${l}`));
    if (ph === "late" && o === "tune") labels.push("late:tune");
    if (ph === "early" && EXPLORE_EDITS.has(o)) labels.push("early:explore");
    if (labels.length) out[o] = labels;
  }
  return out;
}

const famLabels = (ev: ContextEvidence, family: string, c: ContextFeatureConfig): string[] => {
  const e = ev.families.get(family);
  const range = ev.best !== null && ev.worst !== null ? ev.best - ev.worst : 0;
  const out: string[] = [];
  if (e && e.succeeded >= c.crowdedSuccesses) out.push("crowded");
  if (e?.best != null && ev.best !== null && range > 0 && (ev.best - e.best) / range > c.nearShare) out.push("far");
  return out;
};

/** Per-model validation scores from a parent's stdout (`name#i: validation metric = x`). */
export function perModelScores(stdout: string | undefined): Map<number, number> {
  const out = new Map<number, number>();
  for (const m of (stdout ?? "").matchAll(/#(\d+): validation \S+ = (-?[0-9.]+(?:e-?\d+)?)/g))
    out.set(Number(m[1]), Number(m[2]));
  return out;
}

/**
 * Labels of "which model" (options are model indices) for `edit` (tune, swap_model): `<edit>:worst` and
 * `<edit>:best` on the models that scored worst / best in the parent's printed per-model validation (the parent's
 * output is shown to every harness); none when fewer than two models printed a score.
 */
export function whichModelFeatures(
  view: Pick<NodeView, "stdoutTail"> | null,
  options: readonly string[],
  edit: string,
  higherIsBetter: boolean,
): OptionFeatures {
  const s = perModelScores(view?.stdoutTail);
  const scored = options.filter((o) => s.has(Number(o)));
  if (scored.length < 2) return {};
  const sign = higherIsBetter ? 1 : -1;
  const by = (o: string) => sign * s.get(Number(o))!;
  const best = scored.reduce((a, b) => (by(b) > by(a) ? b : a));
  const worst = scored.reduce((a, b) => (by(b) < by(a) ? b : a));
  return { [best]: [`${edit}:best`], [worst]: [`${edit}:worst`] };
}

/** Labels of Crossover's mode: `mix` on ensemble when the parents' first models differ in family, else `same`. */
export function crossoverModeFeatures(familyA: string, familyB: string): OptionFeatures {
  return { ensemble: [familyA === familyB ? "same" : "mix"] };
}

/**
 * Labels of Debug's repair options: give_up on safe_config when this failure kind was shown at least twice
 * (the parent included); family_failing on swap_family when the parent's first model family has two or more
 * shown failures and no success.
 */
export function repairFeatures(
  ev: ContextEvidence,
  options: readonly string[],
  kind: FailureKind,
  parentFamily: string | null,
): OptionFeatures {
  const out: Record<string, string[]> = {};
  if (options.includes("safe_config") && (ev.failureCounts.get(kind) ?? 0) >= 2) out.safe_config = ["give_up"];
  const e = parentFamily ? ev.families.get(parentFamily) : undefined;
  if (options.includes("swap_family") && e && e.succeeded === 0 && e.failed >= 2) out.swap_family = ["family_failing"];
  return out;
}
