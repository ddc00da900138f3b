import type { NodeView } from "../types.js";
import type { Chooser } from "./chooser.js";
import { normaliseSpec, sampleFeatures } from "./draft.js";
import { PARAM_GRIDS, retuneParam, sampleModel } from "./model-grid.js";
import { methodFamily, type FeatureSpec, type SolutionSpec } from "./spec.js";
import { familiesFor, type TaskShape } from "./task-shape.js";
import { editOptionFeatures, familyOptionFeatures, perModelScores, whichModelFeatures } from "./option-features.js";

/** The edits Improve can make; each changes one part of the parent's spec. */
export const IMPROVE_EDITS = [
  "tune",
  "swap_model",
  "features",
  "add_model",
  "drop_model",
  "validation",
  "more_data",
] as const;
export type ImproveEdit = (typeof IMPROVE_EDITS)[number];

/** Edits that apply to this parent (e.g. add_model only below 3 models). */
export function applicableEdits(spec: SolutionSpec): ImproveEdit[] {
  return IMPROVE_EDITS.filter((e) =>
    e === "add_model"
      ? spec.models.length < 3
      : e === "drop_model"
        ? spec.models.length > 1
        : e === "validation"
          ? spec.validation.scheme === "holdout"
          : e === "more_data"
            ? spec.maxTrainRows !== null
            : true,
  );
}

export { perModelScores } from "./option-features.js";

/**
 * Improve: apply 1–2 edits to the parent's spec. The edit distribution is conditioned on the
 * parent's method family (`edit.<family>`), and drop_model removes the model that scored worst.
 */
export function improveSpec(
  ch: Chooser,
  parent: SolutionSpec,
  shape: TaskShape,
  view: NodeView | null,
  higherIsBetter: boolean,
): { spec: SolutionSpec; notes: string[] } {
  const family = view?.methodFamily ?? methodFamily(parent);
  const n = Number(ch.pick("n_edits", ["1", "2"]));
  let spec = parent;
  const notes: string[] = [];
  for (let i = 0; i < n; i++) {
    const edits = applicableEdits(spec);
    const labels = ch.evidence ? editOptionFeatures(ch.evidence, edits, spec.models[0]?.family ?? null) : undefined;
    const edit = ch.pick(`edit.${family}`, edits, labels);
    const r = applyEdit(ch, spec, edit, shape, view, higherIsBetter);
    spec = normaliseSpec(r.spec);
    notes.push(r.note);
  }
  return { spec, notes };
}

function applyEdit(
  ch: Chooser,
  s: SolutionSpec,
  edit: ImproveEdit,
  shape: TaskShape,
  view: NodeView | null,
  higher: boolean,
): { spec: SolutionSpec; note: string } {
  const which = () => {
    if (s.models.length < 2) return 0;
    const opts = s.models.map((_, i) => String(i));
    return Number(ch.pick("which_model", opts, ch.evidence ? whichModelFeatures(view, opts, edit, higher) : undefined));
  };
  const fams = (opts: string[]) => (ch.evidence ? familyOptionFeatures(ch.evidence, opts, shape.modality) : undefined);
  switch (edit) {
    case "tune": {
      const i = which();
      const m = s.models[i]!;
      const param = ch.pick(`tune_param.${m.family}`, Object.keys(PARAM_GRIDS[m.family]));
      const next = retuneParam(ch, m, param, shape.nClasses);
      return {
        spec: { ...s, models: s.models.map((x, k) => (k === i ? next : x)) },
        note: `tune ${m.family} ${param}: ${String(m.params[param])} → ${String(next.params[param])}`,
      };
    }
    case "swap_model": {
      const i = which();
      const options = familiesFor(shape).filter((f) => !s.models.some((m) => m.family === f));
      if (!options.length) return { spec: s, note: "swap_model: no other family left" };
      const next = sampleModel(ch, ch.pick("swap_to", options, fams(options)), shape.nClasses);
      return {
        spec: { ...s, models: s.models.map((x, k) => (k === i ? next : x)) },
        note: `swap ${s.models[i]!.family} → ${next.family}`,
      };
    }
    case "features": {
      const fresh = sampleFeatures(ch, s.modality, s.models, s.taskType);
      const field = ch.pick("feature_field", changedFields(s.features, fresh));
      const features = { ...s.features, [field]: (fresh as unknown as Record<string, unknown>)[field] } as FeatureSpec;
      return {
        spec: { ...s, features },
        note:
          `features: ${field} ${JSON.stringify((s.features as unknown as Record<string, unknown>)[field])} → ` +
          `${JSON.stringify((features as unknown as Record<string, unknown>)[field])}`,
      };
    }
    case "add_model": {
      const options = familiesFor(shape).filter((f) => !s.models.some((m) => m.family === f));
      const opts = options.length ? options : familiesFor(shape);
      const next = sampleModel(ch, ch.pick("add_family", opts, fams(opts)), shape.nClasses);
      const ensemble = s.models.length > 1 ? s.ensemble : ch.pick("ensemble", ["average", "stack"]);
      return { spec: { ...s, models: [...s.models, next], ensemble }, note: `add ${next.family} (${ensemble})` };
    }
    case "drop_model": {
      const scores = perModelScores(view?.stdoutTail);
      let i: number;
      if (scores.size === s.models.length) {
        const ranked = [...scores.entries()].sort((a, b) => (higher ? a[1] - b[1] : b[1] - a[1]));
        i = ranked[0]![0];
      } else
        i = Number(
          ch.pick(
            "drop_which",
            s.models.map((_, k) => String(k)),
          ),
        );
      return {
        spec: { ...s, models: s.models.filter((_, k) => k !== i) },
        note: `drop ${s.models[i]!.family}${scores.size === s.models.length ? " (weakest on validation)" : ""}`,
      };
    }
    case "validation": {
      const folds = ch.pickNumber("folds", [5, 3]);
      return {
        spec: { ...s, validation: { ...s.validation, scheme: "kfold", folds } },
        note: `validation: holdout → ${folds}-fold`,
      };
    }
    case "more_data": {
      const rows = s.maxTrainRows! * 2;
      const maxTrainRows = shape.nTrain !== null && rows >= shape.nTrain ? null : rows;
      return { spec: { ...s, maxTrainRows }, note: `train rows: ${s.maxTrainRows} → ${maxTrainRows ?? "all"}` };
    }
  }
}

/** Fields of a freshly sampled feature block that differ from the current one (or all, if none do). */
function changedFields(cur: FeatureSpec, fresh: FeatureSpec): string[] {
  const a = cur as unknown as Record<string, unknown>;
  const b = fresh as unknown as Record<string, unknown>;
  const fields = Object.keys(b).filter((k) => k !== "kind");
  const changed = fields.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return changed.length ? changed : fields;
}
