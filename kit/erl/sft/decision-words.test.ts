import { describe, expect, it } from "vitest";
import { parentFeatures, shapeFeatures, type TaskShape } from "../../policy/grammar/index.js";
import type { NodeView } from "../../policy/types.js";
import { FEATURE_WORDS, shiftSentence, situationWords } from "./decision-words.js";

const SHAPE: TaskShape = {
  modality: "tabular",
  originalModality: "tabular",
  taskType: "regression",
  nTrain: 300,
  nClasses: 2,
  nFeatures: 6,
  columnKinds: ["categorical", "numeric"],
  missing: true,
  metric: "rmse",
};
const view = (nodeId: string, validScore: number): NodeView =>
  ({ nodeId, operator: "draft", code: "", plan: "", status: "success", validScore, errorSignature: null }) as NodeView;

describe("situationWords", () => {
  it.each([
    ["draft.tabular.model", ["any", "rows:<500", "target:regression"], "Draft model on small tabular regression"],
    [
      "draft.tabular.model",
      ["any", "rows:2k-10k", "cols:8-20", "target:binary", "kind:numeric", "missing:no", "metric:roc_auc"],
      "Draft model on large tabular binary classification (8-20 columns, numeric columns, roc_auc)",
    ],
    [
      "improve.text.swap_to",
      ["rows:>10k", "target:multiclass", "missing:yes", "parent:success", "parent_models:1", "parent_rank:best"],
      "Improve swap to on very large text multiclass classification (missing values; parent succeeded, " +
        "parent has 1 model, parent is the best shown)",
    ],
    [
      "debug.time_series.repair",
      ["rows:?", "parent:runtime_error", "parent_models:2", "parent_rank:below"],
      "Debug repair on unknown-size time series (parent ended in runtime error, parent has 2 models, " +
        "parent is below the best shown)",
    ],
    ["draft.image.model", ["novel:thing", "rows:weird"], "Draft model on weird-row image (novel:thing)"],
    [
      "draft.tabular.model",
      ["any", "rows:<500", "missing:yes", "kind:numeric", "target:regression", "cols:<8", "kind:categorical", "metric:rmse"],
      "Draft model on small tabular regression (<8 columns, numeric/categorical columns, missing values, rmse)",
    ],
    ["draft.tabular.edit.hist_gb", [], "Draft edit hist gb on tabular"],
    ["oddname", ["metric:f1"], "oddname (f1)"],
  ] as const)("%s %j", (decision, features, want) => {
    expect(situationWords(decision, features)).toBe(want);
  });

  it("every feature key decision-features.ts writes has words", () => {
    const ctx = { parents: [{ ...view("p", 0.9), spec: undefined }], siblings: [view("s", 0.5)], budget: {} };
    const features = [...shapeFeatures(SHAPE), ...parentFeatures(ctx as never, true)];
    expect(features).toContain("parent_rank:best");
    const keys = new Set(features.map((f) => f.split(":")[0]!));
    for (const k of [...keys, "parent_models"]) expect(FEATURE_WORDS, k).toHaveProperty(k);
  });
});

describe("shiftSentence", () => {
  it("the top mover with its context labels, p to two digits", () => {
    const s = {
      decision: "draft.tabular.model",
      features: ["any", "rows:<500", "target:regression"],
      optionFeatures: { gradient_boosting: ["untried", "early:untried"] },
      topOption: "gradient_boosting",
      topA: 0.2149,
      topB: 0.4762,
    };
    expect(shiftSentence(s)).toBe(
      "Draft model on small tabular regression: gradient boosting [untried, early:untried] 0.21 → 0.48",
    );
    expect(shiftSentence({ ...s, optionFeatures: {} }, 3)).toBe(
      "Draft model on small tabular regression: gradient boosting 0.215 → 0.476",
    );
  });
});
