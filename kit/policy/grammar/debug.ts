import type { NodeView } from "../types.js";
import type { Chooser } from "./chooser.js";
import { normaliseSpec, safeSpec } from "./draft.js";
import { defaultModel } from "./model-grid.js";
import type { ModelFamily, ModelSpec, SolutionSpec } from "./spec.js";
import { FAMILY_MODULE, familiesFor, type TaskShape } from "./task-shape.js";
import { familyOptionFeatures, repairFeatures } from "./option-features.js";

export const FAILURE_KINDS = [
  "timeout",
  "import_error",
  "memory",
  "column_mismatch",
  "submission_missing",
  "metric_parse_failed",
  "syntax_error",
  "runtime_error",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Map a failed node's status, error signature and traceback to a failure kind (first rule wins). */
export function classifyFailure(
  view: Pick<NodeView, "status" | "errorSignature" | "traceback" | "stdoutTail">,
): FailureKind {
  const sig = (view.errorSignature ?? "").toLowerCase();
  const tb = `${view.traceback ?? ""}\n${view.stdoutTail ?? ""}`;
  if (view.status === "timeout" || sig.includes("timeout")) return "timeout";
  if (sig.includes("import") || /ModuleNotFoundError|ImportError|No module named/.test(tb)) return "import_error";
  if (
    sig.includes("memory") ||
    sig.includes("oom") ||
    sig.startsWith("killed_by") ||
    /MemoryError|out of memory|Cannot allocate|OOM|Killed/.test(tb)
  )
    return "memory";
  if (sig.includes("column") || view.status === "scoring_failure") return "column_mismatch";
  if (sig.includes("submission") || view.status === "missing_submission") return "submission_missing";
  if (sig.includes("metric_parse")) return "metric_parse_failed";
  if (sig.includes("syntax") || /SyntaxError|IndentationError/.test(tb)) return "syntax_error";
  return "runtime_error";
}

export const DEBUG_REPAIRS = [
  "swap_family",
  "shrink_model",
  "subsample",
  "holdout",
  "single_model",
  "smaller_batches",
  "smaller_features",
  "fix_writer",
  "safe_config",
] as const;
export type DebugRepair = (typeof DEBUG_REPAIRS)[number];

/** The repairs offered for each failure kind (the table of the issue); masked by what applies. */
export const REPAIRS_BY_KIND: Record<FailureKind, readonly DebugRepair[]> = {
  import_error: ["swap_family"],
  timeout: ["shrink_model", "subsample", "holdout", "single_model"],
  memory: ["subsample", "smaller_batches", "smaller_features"],
  column_mismatch: ["fix_writer"],
  submission_missing: ["fix_writer"],
  metric_parse_failed: ["safe_config"],
  syntax_error: ["safe_config"],
  runtime_error: ["safe_config", "swap_family", "single_model"],
};

/** The Python module named in a "No module named 'x'" traceback. */
export function missingModule(traceback: string | null | undefined): string | null {
  const m = /No module named '?([A-Za-z0-9_]+)/.exec(traceback ?? "");
  return m ? m[1]! : null;
}

export function applicableRepairs(kind: FailureKind, s: SolutionSpec): DebugRepair[] {
  const torch = s.models.some((m) => m.family === "torch_mlp" || m.family === "torch_cnn");
  const ok = REPAIRS_BY_KIND[kind].filter((r) =>
    r === "holdout"
      ? s.validation.scheme === "kfold"
      : r === "single_model"
        ? s.models.length > 1
        : r === "smaller_batches"
          ? torch
          : r === "fix_writer"
            ? s.writer !== "sample"
            : true,
  );
  return ok.length ? ok : ["safe_config"];
}

const halve = (m: ModelSpec): ModelSpec => {
  const params = { ...m.params };
  for (const k of ["n_estimators", "max_iter", "epochs", "hidden", "channels"])
    if (typeof params[k] === "number") params[k] = Math.max(2, Math.floor((params[k] as number) / 2));
  return { family: m.family, params };
};

/** Debug: repair the parent's spec for its failure (decision `repair.<kind>`). */
export function debugSpec(
  ch: Chooser,
  parent: SolutionSpec | null,
  shape: TaskShape,
  view: NodeView,
): { spec: SolutionSpec; notes: string[]; kind: FailureKind; repair: DebugRepair } {
  const kind = classifyFailure(view);
  const missing = kind === "import_error" ? missingModule(`${view.traceback ?? ""}\n${view.stdoutTail ?? ""}`) : null;
  if (!parent) {
    return {
      spec: safeSpec(shape),
      notes: [`${kind}: parent was not written by the grammar; start from the safe ${shape.modality} config`],
      kind,
      repair: "safe_config",
    };
  }
  const repairs = applicableRepairs(kind, parent);
  const labels = ch.evidence ? repairFeatures(ch.evidence, repairs, kind, parent.models[0]?.family ?? null) : undefined;
  const repair = ch.pick(`repair.${kind}`, repairs, labels);
  const s = parent;
  let spec: SolutionSpec;
  let note: string;
  switch (repair) {
    case "swap_family": {
      const avoid = missing ? [missing] : [];
      const bad = (m: ModelSpec) =>
        missing
          ? FAMILY_MODULE[m.family] === missing || (m.family === "xgboost" && missing === "xgboost")
          : m === s.models[0];
      const options = familiesFor(shape, avoid).filter((f) => !s.models.some((m) => m.family === f));
      const opts: ModelFamily[] = options.length ? options : ["hist_gb"];
      const to = ch.pick(
        "swap_to",
        opts,
        ch.evidence ? familyOptionFeatures(ch.evidence, opts, shape.modality) : undefined,
      );
      const models = s.models.map((m) => (bad(m) ? defaultModel(to) : m));
      spec = { ...s, models: models.filter((m, i) => models.findIndex((x) => x.family === m.family) === i) };
      note = `swap ${
        s.models
          .filter(bad)
          .map((m) => m.family)
          .join(", ") || s.models[0]!.family
      } → ${to}${missing ? ` (no module ${missing})` : ""}`;
      break;
    }
    case "shrink_model":
      spec = { ...s, models: s.models.map(halve) };
      note = "halve estimators / epochs / width";
      break;
    case "subsample": {
      const cap = Math.max(
        1000,
        Math.floor(Math.min(s.maxTrainRows ?? shape.nTrain ?? 10000, shape.nTrain ?? Infinity) / 2),
      );
      spec = { ...s, maxTrainRows: cap };
      note = `subsample training rows to ${cap}`;
      break;
    }
    case "holdout":
      spec = { ...s, validation: { ...s.validation, scheme: "holdout" } };
      note = "k-fold → single holdout";
      break;
    case "single_model":
      spec = { ...s, models: [s.models[0]!], ensemble: "none" };
      note = `keep only ${s.models[0]!.family}`;
      break;
    case "smaller_batches":
      spec = {
        ...s,
        models: s.models.map((m) =>
          typeof m.params.batch_size === "number"
            ? {
                family: m.family,
                params: { ...m.params, batch_size: Math.max(16, (m.params.batch_size as number) / 4) },
              }
            : m,
        ),
      };
      note = "quarter the torch batch size";
      break;
    case "smaller_features": {
      const f = s.features;
      const features =
        f.kind === "text"
          ? {
              ...f,
              word: f.word && { ...f.word, maxFeatures: Math.floor(f.word.maxFeatures / 4) },
              char: f.char && { ...f.char, maxFeatures: Math.floor(f.char.maxFeatures / 4) },
            }
          : f.kind === "image"
            ? { ...f, side: Math.max(8, f.side / 2) }
            : f.kind === "tabular"
              ? { ...f, maxCategories: 5, interactions: "none" as const }
              : f.kind === "audio"
                ? {
                    ...f,
                    nMels: Math.min(f.nMels, 26),
                    segments: Math.min(f.segments, 4),
                    frameMs: Math.max(f.frameMs, 25),
                  }
                : { ...f, lags: f.lags.slice(0, 2), windows: f.windows.slice(0, 1) };
      spec = { ...s, features };
      note = "shrink the feature matrix";
      break;
    }
    case "fix_writer":
      spec = { ...s, writer: "sample" };
      note = "write the submission from sample_submission.csv's ids and columns";
      break;
    case "safe_config":
      spec = ((safe) => ({ ...safe, maxTrainRows: s.maxTrainRows ?? safe.maxTrainRows }))(safeSpec(shape));
      note = `fall back to the safe ${shape.modality} config`;
      break;
  }
  return { spec: normaliseSpec(spec), notes: [`${kind} → ${repair}: ${note}`], kind, repair };
}
