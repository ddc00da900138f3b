import { describe, expect, it } from "vitest";
import { createRng } from "../../util/rng.js";
import type { Operator, OperatorContext } from "../types.js";
import { decisionFeatures, parentFeatures, shapeFeatures } from "./decision-features.js";
import { handSetGrammarParams } from "./default-params.js";
import { createGrammarPolicy, logProb, replayChoices } from "./grammar-policy.js";
import { choiceLogProb, type GrammarParams } from "./params.js";
import { gradientStep } from "./gradient-step.js";
import { taskShape } from "./task-shape.js";
import { BUDGET, metaTask, NO_PARENTS, view } from "./test-helpers/tasks.js";

const cols = (kinds: string[], missing = 0) => [
  { name: "id", kind: "id" as const, missingShare: 0, unique: 10 },
  { name: "label", kind: "target" as const, missingShare: 0, unique: 2 },
  ...kinds.map((k, i) => ({ name: `c${i}`, kind: k as "numeric", missingShare: i === 0 ? missing : 0, unique: 5 })),
];

describe("decision features", () => {
  it.each([
    [{ modality: "tabular", nTrain: 258, columns: cols(["numeric", "numeric", "categorical"], 0.1), classes: ["a", "b", "c"] },
      ["any", "rows:<500", "cols:<8", "target:multiclass", "kind:categorical", "kind:numeric", "missing:yes", "metric:accuracy"]],
    [{ modality: "time_series", nTrain: 1168, taskType: "regression", metric: "rmse", classes: undefined, columns: cols(Array(12).fill("numeric").concat(["datetime"])) },
      ["any", "rows:500-2k", "cols:8-20", "target:regression", "kind:datetime", "kind:numeric", "missing:no", "metric:rmse"]],
    [{ modality: "text", nTrain: 50000, classes: ["neg", "pos"], metric: "roc_auc", columns: undefined },
      ["any", "rows:>10k", "cols:?", "target:binary", "missing:no", "metric:roc_auc"]],
  ] as const)("shapeFeatures %#", (over, expected) => {
    expect(shapeFeatures(taskShape(metaTask(over as never)))).toEqual(expected);
  });

  it.each([
    // parent status, its score, others' scores, higherIsBetter → features
    ["success", 0.9, [0.8, 0.85], true, ["parent:success", "parent_models:1", "parent_rank:best"]],
    ["success", 0.8, [0.9], true, ["parent:success", "parent_models:1", "parent_rank:below"]],
    ["success", 0.8, [0.9], false, ["parent:success", "parent_models:1", "parent_rank:best"]],
    ["success", 0.8, [], true, ["parent:success", "parent_models:1", "parent_rank:alone"]],
    ["timeout", null, [0.9], true, ["parent:timeout", "parent_models:1"]],
  ] as const)("parentFeatures: %s %s vs %j (higher is better: %s)", (status, score, others, higher, expected) => {
    const spec = { version: 1, modality: "tabular", taskType: "classification", features: {}, models: [{ family: "linear", params: {} }], ensemble: "none", validation: {}, maxTrainRows: null, writer: "sample", seed: 42 };
    const ctx: OperatorContext = {
      parents: [view("p", spec, { status, validScore: score })],
      siblings: others.map((s, i) => view(`s${i}`, spec, { validScore: s })),
      budget: BUDGET,
    };
    expect(parentFeatures(ctx, higher)).toEqual(expected);
    expect(parentFeatures(NO_PARENTS, higher)).toEqual([]);
  });
});

describe("feature-conditioned params: exact replay and transfer", () => {
  const tab = metaTask({ modality: "tabular", nTrain: 300, columns: cols(["numeric", "numeric"]) });
  const ts = metaTask({ modality: "time_series", nTrain: 300, taskType: "regression", metric: "rmse", higherIsBetter: false, classes: undefined, columns: cols(["numeric", "numeric"]) });

  it("logProb replays every operator exactly under version 2 params", async () => {
    // version 2 params: train on a few drafts so every conditioned row is non-zero
    let p: GrammarParams = handSetGrammarParams();
    const pol = createGrammarPolicy(p);
    for (let s = 1; s <= 4; s++) p = gradientStep(p, [{ choices: (await pol.propose(tab, "draft", NO_PARENTS, createRng(s))).choices, weight: 1 }], 0.5, { conditioned: true });
    expect(p.version).toBe(2);
    const policy = createGrammarPolicy(p);
    for (const task of [tab, ts]) {
      for (let seed = 1; seed <= 4; seed++) {
        const a = (await policy.propose(task, "draft", NO_PARENTS, createRng(seed))).spec;
        const b = (await policy.propose(task, "draft", NO_PARENTS, createRng(seed + 50))).spec;
        const contexts: Record<Operator, OperatorContext> = {
          draft: NO_PARENTS,
          improve: { parents: [view("a", a)], siblings: [view("b", b, { validScore: 0.95 })], budget: BUDGET },
          debug: { parents: [view("a", a, { status: "timeout", errorSignature: "timeout", validScore: null })], budget: BUDGET },
          crossover: { parents: [view("a", a, { validScore: 0.7 }), view("b", b, { validScore: 0.9 })], budget: BUDGET },
        };
        for (const op of ["draft", "improve", "debug", "crossover"] as const) {
          const out = await policy.propose(task, op, contexts[op], createRng(seed));
          expect(out.choices.every((c) => c.features?.includes("any"))).toBe(true);
          expect(logProb(p, out.code, task, op, contexts[op])).toBeCloseTo(out.logProb, 10);
          const replayed = replayChoices(p, out.code, task, op, contexts[op]);
          expect(replayed).toEqual(out.choices);
          expect(replayed.reduce((s, c) => s + choiceLogProb(p, c), 0)).toBeCloseTo(out.logProb, 10);
        }
      }
    }
  });

  it("a preference learned on a tabular task moves the same decision on an unseen time-series task of the same shape", async () => {
    const pick = (n: number) => ({ name: "draft.tabular.n_models", value: String(n), logProb: 0, options: ["1", "2", "3"], features: decisionFeatures(tab, "draft", NO_PARENTS) });
    const trained = gradientStep({ version: 1, logits: {} }, [{ choices: [pick(3), pick(3), pick(3)], weight: 1 }], 1, { conditioned: true });
    const tsChoice = { name: "draft.time_series.n_models", value: "3", logProb: 0, options: ["1", "2", "3"], features: decisionFeatures(ts, "draft", NO_PARENTS) };
    expect(Math.exp(choiceLogProb(trained, tsChoice))).toBeGreaterThan(0.5); // uniform: 1/3
    const v1only = gradientStep({ version: 1, logits: {} }, [{ choices: [pick(3), pick(3), pick(3)], weight: 1 }], 1);
    expect(Math.exp(choiceLogProb(v1only, tsChoice))).toBeCloseTo(1 / 3, 12);
  });
});
