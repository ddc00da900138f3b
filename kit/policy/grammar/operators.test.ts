import { describe, expect, it } from "vitest";
import { createRng } from "../../util/rng.js";
import type { Operator, OperatorContext } from "../types.js";
import { classifyFailure, REPAIRS_BY_KIND, type DebugRepair, type FailureKind } from "./debug.js";
import { defaultGrammarParams } from "./default-params.js";
import { createGrammarPolicy, logProb } from "./grammar-policy.js";
import { logSoftmax, type GrammarParams } from "./params.js";
import type { SolutionSpec } from "./spec.js";
import { BUDGET, forcing, metaTask, NO_PARENTS, view } from "./test-helpers/tasks.js";

const TASKS = {
  tabular: metaTask({ modality: "tabular" }),
  text: metaTask({ modality: "text", metric: "roc_auc", classes: ["neg", "pos"] }),
  image: metaTask({ modality: "image", classes: Array.from({ length: 10 }, (_, i) => i) }),
  time_series: metaTask({ modality: "time_series", taskType: "regression", metric: "rmse", higherIsBetter: false, classes: undefined }),
};
const params = defaultGrammarParams();
const draftOf = async (task = TASKS.tabular, seed = 1, p: GrammarParams = params) =>
  (await createGrammarPolicy(p).propose(task, "draft", NO_PARENTS, createRng(seed))).spec;

describe("grammar policy: sampling, determinism, logProb", () => {
  it("same Rng seed → same program; a different seed usually differs", async () => {
    const p = createGrammarPolicy();
    const a = await p.propose(TASKS.tabular, "draft", NO_PARENTS, createRng(7));
    const b = await p.propose(TASKS.tabular, "draft", NO_PARENTS, createRng(7));
    expect(a.code).toBe(b.code);
    const others = await Promise.all([8, 9, 10].map((s) => p.propose(TASKS.tabular, "draft", NO_PARENTS, createRng(s))));
    expect(others.some((o) => o.code !== a.code)).toBe(true);
  });

  it.each(Object.keys(TASKS) as (keyof typeof TASKS)[])("%s: logProb(program) = Σ recorded choice log-probs, for every operator", async (mod) => {
    const task = TASKS[mod];
    const policy = createGrammarPolicy();
    for (let seed = 1; seed <= 6; seed++) {
      const parentA = await draftOf(task, seed);
      const parentB = await draftOf(task, seed + 100);
      const contexts: Record<Operator, OperatorContext> = {
        draft: NO_PARENTS,
        improve: { parents: [view("a", parentA)], budget: BUDGET },
        debug: { parents: [view("a", parentA, { status: "timeout", errorSignature: "timeout", validScore: null })], budget: BUDGET },
        crossover: { parents: [view("a", parentA, { validScore: 0.7 }), view("b", parentB, { validScore: 0.9 })], budget: BUDGET },
      };
      for (const op of ["draft", "improve", "debug", "crossover"] as const) {
        const out = await policy.propose(task, op, contexts[op], createRng(seed));
        const sum = out.choices.reduce((s, c) => s + c.logProb, 0);
        expect(out.logProb).toBeCloseTo(sum, 10);
        expect(logProb(params, out.code, task, op, contexts[op])).toBeCloseTo(sum, 10);
        // Under other params the replay re-scores each decision with the new logits.
        const other: GrammarParams = { version: 1, logits: {} };
        const expected = out.choices.reduce((s, c) => s + logSoftmax(other, c.name, c.options)[c.options.indexOf(c.value)]!, 0);
        expect(logProb(other, { choices: out.choices }, task, op, contexts[op])).toBeCloseTo(expected, 10);
      }
    }
  });

  it("logProb refuses a program without a trace or with someone else's trace", async () => {
    const out = await createGrammarPolicy().propose(TASKS.tabular, "draft", NO_PARENTS, createRng(1));
    expect(() => logProb(params, "print(1)", TASKS.tabular, "draft", NO_PARENTS)).toThrow(/grammar-trace/);
    expect(() => logProb(params, out.code, TASKS.text, "draft", NO_PARENTS)).toThrow(/expected draft\.text/);
  });
});

describe("Improve: changes the parent in the documented way", () => {
  const parent: SolutionSpec = { version: 1, modality: "tabular", taskType: "classification",
    features: { kind: "tabular", numericImpute: "median", missingIndicators: false, scale: "none", categorical: "onehot", maxCategories: 20, interactions: "none" },
    models: [{ family: "hist_gb", params: { max_iter: 200, learning_rate: 0.1, max_leaf_nodes: 31 } }, { family: "linear", params: { C: 1 } }],
    ensemble: "average", validation: { scheme: "holdout", folds: 5, holdoutFrac: 0.2 }, maxTrainRows: 1000, writer: "sample", seed: 42 };
  const improve = async (edit: string, extra: Record<string, string> = {}, stdoutTail?: string) => {
    const p = forcing(params, { "improve.tabular.n_edits": "1", "improve.tabular.edit.ensemble": edit, ...extra });
    const out = await createGrammarPolicy(p).propose(TASKS.tabular, "improve", { parents: [view("p", parent, { methodFamily: "ensemble", ...(stdoutTail ? { stdoutTail } : {}) })], budget: BUDGET }, createRng(3));
    return out.spec;
  };
  const changedKeys = (s: SolutionSpec) => (Object.keys(s) as (keyof SolutionSpec)[]).filter((k) => JSON.stringify(s[k]) !== JSON.stringify(parent[k]));

  it.each([
    ["tune", ["models"]],
    ["swap_model", ["models"]],
    ["features", ["features"]],
    ["add_model", ["models"]],
    ["drop_model", ["models", "ensemble"]],
    ["validation", ["validation"]],
    ["more_data", ["maxTrainRows"]],
  ] as const)("%s changes only %j", async (edit, keys) => {
    const s = await improve(edit);
    expect(changedKeys(s)).toEqual(keys);
  });

  it("tune moves one hyperparameter of one model to another grid value", async () => {
    const s = await improve("tune", { "improve.tabular.which_model": "0", "improve.tabular.tune_param.hist_gb": "max_iter" });
    expect(s.models[0]!.params.max_iter).not.toBe(200);
    expect({ ...s.models[0]!.params, max_iter: 200 }).toEqual(parent.models[0]!.params);
    expect(s.models[1]).toEqual(parent.models[1]);
  });

  it("add_model adds a family not yet used; more_data doubles the row cap", async () => {
    const added = await improve("add_model");
    expect(added.models).toHaveLength(3);
    expect(["hist_gb", "linear"]).not.toContain(added.models[2]!.family);
    expect((await improve("more_data")).maxTrainRows).toBe(2000);
  });

  it("drop_model drops the model that scored worst on validation (parsed from stdout)", async () => {
    const s = await improve("drop_model", {}, "hist_gb#0: validation accuracy = 0.91000 (1.0s)\nlinear#1: validation accuracy = 0.85000 (1.2s)\n");
    expect(s.models.map((m) => m.family)).toEqual(["hist_gb"]);
    expect(s.ensemble).toBe("none");
  });
});

describe("Crossover: combines two parents", () => {
  const a: SolutionSpec = { version: 1, modality: "text", taskType: "classification",
    features: { kind: "text", word: { ngramMax: 2, maxFeatures: 10000, sublinearTf: true, minDf: 1 }, char: null, extraColumns: false },
    models: [{ family: "linear", params: { C: 1 } }], ensemble: "none", validation: { scheme: "holdout", folds: 5, holdoutFrac: 0.2 }, maxTrainRows: null, writer: "sample", seed: 42 };
  const b: SolutionSpec = { ...a, features: { kind: "text", word: null, char: { ngramMin: 2, ngramMax: 5, maxFeatures: 30000 }, extraColumns: true }, models: [{ family: "svm", params: { C: 3 } }] };
  const cross = async (mode: string, better: "a" | "b") => (await createGrammarPolicy(forcing(params, { "crossover.text.mode": mode })).propose(TASKS.text, "crossover",
    { parents: [view("a", a, { validScore: better === "a" ? 0.9 : 0.8 }), view("b", b, { validScore: better === "b" ? 0.9 : 0.8 })], budget: BUDGET }, createRng(1))).spec;

  it("ensemble: better parent's features, one model from each", async () => {
    const s = await cross("ensemble", "b");
    expect(s.features).toEqual(b.features);
    expect(s.models).toEqual([b.models[0], a.models[0]]);
    expect(["average", "stack"]).toContain(s.ensemble);
  });

  it("swap_features: the better parent's models on the other's features", async () => {
    const s = await cross("swap_features", "a");
    expect(s.models).toEqual(a.models);
    expect(s.features).toEqual(b.features);
  });

  it("union_features: word n-grams from one, char n-grams and extra columns from the other", async () => {
    const s = await cross("union_features", "a");
    expect(s.features).toEqual({ kind: "text", word: (a.features as { word: unknown }).word, char: (b.features as { char: unknown }).char, extraColumns: true });
    expect(s.models).toEqual(a.models);
  });

  it("identical parents still give a new spec (a k-fold ensemble)", async () => {
    const s = (await createGrammarPolicy().propose(TASKS.text, "crossover", { parents: [view("a", a), view("b", a)], budget: BUDGET }, createRng(1))).spec;
    expect(JSON.stringify(s)).not.toBe(JSON.stringify(a));
  });
});

describe("Debug: failure → repair table", () => {
  it.each([
    [{ status: "timeout", errorSignature: "timeout" }, "timeout"],
    [{ status: "runtime_error", errorSignature: "import_error", traceback: "ModuleNotFoundError: No module named 'xgboost'" }, "import_error"],
    [{ status: "runtime_error", errorSignature: null, traceback: "ImportError: cannot import name 'X'" }, "import_error"],
    [{ status: "runtime_error", errorSignature: "memory_error" }, "memory"],
    [{ status: "runtime_error", errorSignature: "killed_by_sigkill" }, "memory"],
    [{ status: "runtime_error", errorSignature: "nonzero_exit", traceback: "numpy.core._exceptions.MemoryError: Unable to allocate" }, "memory"],
    [{ status: "scoring_failure", errorSignature: "column_mismatch" }, "column_mismatch"],
    [{ status: "scoring_failure", errorSignature: "row_count_mismatch" }, "column_mismatch"],
    [{ status: "missing_submission", errorSignature: "submission_missing" }, "submission_missing"],
    [{ status: "success", errorSignature: "metric_parse_failed" }, "metric_parse_failed"],
    [{ status: "runtime_error", errorSignature: "syntax_error" }, "syntax_error"],
    [{ status: "runtime_error", errorSignature: "KeyError", traceback: "KeyError: 'age'" }, "runtime_error"],
  ] as const)("%j → %s", (v, kind) => {
    expect(classifyFailure(v)).toBe(kind);
  });

  const parent: SolutionSpec = { version: 1, modality: "image", taskType: "classification",
    features: { kind: "image", method: "pixels", side: 28, scale: "standard" },
    models: [{ family: "xgboost", params: { n_estimators: 200, max_depth: 5, learning_rate: 0.1, subsample: 0.8 } }, { family: "torch_cnn", params: { channels: 16, epochs: 8, lr: 0.002, batch_size: 128 } }],
    ensemble: "average", validation: { scheme: "kfold", folds: 5, holdoutFrac: 0.2 }, maxTrainRows: 4000, writer: "positional", seed: 42 };
  const failures: Record<FailureKind, object> = {
    timeout: { status: "timeout", errorSignature: "timeout" },
    import_error: { status: "runtime_error", errorSignature: "import_error", traceback: "ModuleNotFoundError: No module named 'xgboost'" },
    memory: { status: "runtime_error", errorSignature: "memory_error" },
    column_mismatch: { status: "scoring_failure", errorSignature: "column_mismatch" },
    submission_missing: { status: "missing_submission", errorSignature: "submission_missing" },
    metric_parse_failed: { status: "success", errorSignature: "metric_parse_failed" },
    syntax_error: { status: "runtime_error", errorSignature: "syntax_error" },
    runtime_error: { status: "runtime_error", errorSignature: "ValueError", traceback: "ValueError: bad" },
  };
  const expectations: Record<DebugRepair, (s: SolutionSpec) => void> = {
    swap_family: (s) => expect(s.models.map((m) => m.family)).not.toContain("xgboost"),
    shrink_model: (s) => expect([s.models[0]!.params.n_estimators, s.models[1]!.params.epochs]).toEqual([100, 4]),
    subsample: (s) => expect(s.maxTrainRows).toBe(1500),
    holdout: (s) => expect(s.validation.scheme).toBe("holdout"),
    single_model: (s) => expect([s.models.length, s.ensemble]).toEqual([1, "none"]),
    smaller_batches: (s) => expect(s.models[1]!.params.batch_size).toBe(32),
    smaller_features: (s) => expect(s.features).toMatchObject({ side: 14 }),
    fix_writer: (s) => expect(s.writer).toBe("sample"),
    safe_config: (s) => expect(s.models.map((m) => m.family)).toEqual(["linear"]),
  };
  const task = metaTask({ modality: "image", classes: Array.from({ length: 10 }, (_, i) => i), nTrain: 3000 });
  const cases = (Object.entries(REPAIRS_BY_KIND) as [FailureKind, readonly DebugRepair[]][]).flatMap(([kind, repairs]) => repairs.map((r) => [kind, r] as const));

  it.each(cases)("%s → %s", async (kind, repair) => {
    const p = forcing(params, { [`debug.image.repair.${kind}`]: repair, "debug.image.swap_to": "hist_gb" });
    const out = await createGrammarPolicy(p).propose(task, "debug", { parents: [view("p", parent, { validScore: null, ...failures[kind] })], budget: BUDGET }, createRng(1));
    expect(out.plan).toContain(`${kind} → ${repair}`);
    expectations[repair](out.spec);
  });

  it("a parent without a grammar spec (an LLM program) is replaced by the safe config", async () => {
    const out = await createGrammarPolicy().propose(task, "debug", { parents: [view("p", undefined, { status: "runtime_error", errorSignature: "syntax_error" })], budget: BUDGET }, createRng(1));
    expect(out.spec.models.map((m) => m.family)).toEqual(["linear"]);
    expect(out.choices).toEqual([]);
  });

  it("drafts avoid families whose module an earlier failure could not import", async () => {
    const ctx: OperatorContext = { parents: [], failures: [view("f", undefined, { status: "runtime_error", errorSignature: "import_error", traceback: "No module named 'torch'" })], budget: BUDGET };
    for (let seed = 1; seed <= 20; seed++) {
      const s = (await createGrammarPolicy().propose(task, "draft", ctx, createRng(seed))).spec;
      expect(s.models.some((m) => m.family.startsWith("torch"))).toBe(false);
    }
  });
});

describe("Improve of a failed parent", () => {
  it("repairs it first (Debug's table), still replayable by logProb", async () => {
    const parent = (await createGrammarPolicy().propose(TASKS.tabular, "draft", NO_PARENTS, createRng(2))).spec;
    const ctx: OperatorContext = { parents: [view("p", parent, { status: "timeout", errorSignature: "timeout", validScore: null })], budget: BUDGET };
    const out = await createGrammarPolicy().propose(TASKS.tabular, "improve", ctx, createRng(1));
    expect(out.plan).toMatch(/failed \(timeout\), so repair it first: timeout → /);
    expect(logProb(params, out.code, TASKS.tabular, "improve", ctx)).toBeCloseTo(out.logProb, 10);
  });
});
