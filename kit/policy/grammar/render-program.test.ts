import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PYTHON, resolveTask } from "../../gym/index.js";
import { probeBwrap, runSandbox } from "../../sandbox/index.js";
import { createRng } from "../../util/rng.js";
import type { Operator } from "../types.js";
import { defaultGrammarParams } from "./default-params.js";
import { createGrammarPolicy } from "./grammar-policy.js";
import { renderProgram } from "./render-program.js";
import type { SolutionSpec } from "./spec.js";
import { BUDGET, metaTask, NO_PARENTS, view } from "./test-helpers/tasks.js";

const dir = mkdtempSync(join(tmpdir(), "grammar-render-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("rendered programs are valid Python", () => {
  it("py_compile accepts 5 modalities × 4 operators × 12 seeds of sampled programs", async () => {
    const tasks = [
      metaTask({ modality: "tabular" }),
      metaTask({ modality: "text", metric: "roc_auc", classes: ["neg", "pos"] }),
      metaTask({ modality: "image", metric: "log_loss", higherIsBetter: false, targetColumns: ["c0", "c1", "c2"], classes: ["c0", "c1", "c2"] }),
      metaTask({ modality: "time_series", taskType: "regression", metric: "rmse", higherIsBetter: false, classes: undefined }),
      metaTask({ modality: "audio", classes: ["0", "1", "2"] }),
    ];
    const policy = createGrammarPolicy(defaultGrammarParams());
    const files: string[] = [];
    for (const task of tasks) {
      for (let seed = 1; seed <= 12; seed++) {
        const a = await policy.propose(task, "draft", NO_PARENTS, createRng(seed));
        const b = await policy.propose(task, "draft", NO_PARENTS, createRng(seed + 50));
        const ctx = {
          draft: NO_PARENTS,
          improve: { parents: [view("a", a.spec)], budget: BUDGET },
          debug: { parents: [view("a", a.spec, { status: "runtime_error", errorSignature: "memory_error" })], budget: BUDGET },
          crossover: { parents: [view("a", a.spec), view("b", b.spec)], budget: BUDGET },
        } as const;
        for (const op of Object.keys(ctx) as Operator[]) {
          const out = await policy.propose(task, op, ctx[op], createRng(seed));
          const f = join(dir, `${task.meta.modality}-${op}-${seed}.py`);
          writeFileSync(f, out.code);
          files.push(f);
        }
      }
    }
    const r = spawnSync(PYTHON, ["-c", "import py_compile, sys\nfor f in sys.argv[1:]: py_compile.compile(f, doraise=True)", ...files], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(files).toHaveLength(5 * 4 * 12);
  });
});

// Fast hand-picked specs that together cover every modality, feature block, output kind
// (labels, one probability column, a column per class) and ensembling: run end to end.
const base = { version: 1, ensemble: "none", validation: { scheme: "holdout", folds: 3, holdoutFrac: 0.2 }, maxTrainRows: null, writer: "sample", seed: 42 } as const;
const E2E: Record<string, Omit<SolutionSpec, keyof typeof base> & Partial<SolutionSpec>> = {
  penguins: { modality: "tabular", taskType: "classification",
    features: { kind: "tabular", numericImpute: "median", missingIndicators: true, scale: "quantile", categorical: "target", maxCategories: 10, interactions: "products" },
    models: [{ family: "hist_gb", params: { max_iter: 50, learning_rate: 0.1, max_leaf_nodes: 15 } }, { family: "linear", params: { C: 1 } }],
    ensemble: "stack", validation: { scheme: "kfold", folds: 2, holdoutFrac: 0.2 } },
  wine: { modality: "tabular", taskType: "classification",
    features: { kind: "tabular", numericImpute: "mean", missingIndicators: false, scale: "standard", categorical: "onehot", maxCategories: 10, interactions: "ratios" },
    models: [{ family: "xgboost", params: { n_estimators: 40, max_depth: 3, learning_rate: 0.2, subsample: 0.8 } }, { family: "knn", params: { n_neighbors: 5, weights: "distance" } }], ensemble: "average" },
  sentiment: { modality: "text", taskType: "classification",
    features: { kind: "text", word: { ngramMax: 2, maxFeatures: 10000, sublinearTf: true, minDf: 1 }, char: { ngramMin: 2, ngramMax: 4, maxFeatures: 10000 }, extraColumns: false },
    models: [{ family: "linear", params: { C: 3 } }] },
  digits: { modality: "image", taskType: "classification", features: { kind: "image", method: "pixels", side: 8, scale: "none" },
    models: [{ family: "torch_cnn", params: { channels: 8, epochs: 2, lr: 0.005, batch_size: 64 } }] },
  "fashion-mnist": { modality: "image", taskType: "classification", features: { kind: "image", method: "hog", side: 16, scale: "standard" },
    models: [{ family: "linear", params: { C: 1 } }], maxTrainRows: 800 },
  "co2-concentration": { modality: "time_series", taskType: "regression",
    features: { kind: "time_series", lags: [1, 2, 12], windows: [3], calendar: true, exogenousLags: false, difference: true },
    models: [{ family: "linear", params: { C: 1 } }], validation: { scheme: "time_holdout", folds: 3, holdoutFrac: 0.2 } },
  "seattle-weather": { modality: "time_series", taskType: "classification",
    features: { kind: "time_series", lags: [1], windows: [7], calendar: true, exogenousLags: true, difference: false },
    models: [{ family: "random_forest", params: { n_estimators: 60, max_depth: 8, min_samples_leaf: 2 } }], validation: { scheme: "time_holdout", folds: 3, holdoutFrac: 0.2 } },
  "spoken-digits": { modality: "audio", taskType: "classification",
    features: { kind: "audio", method: "mfcc", nMels: 26, frameMs: 25, segments: 4, deltas: true, scale: "standard" },
    models: [{ family: "linear", params: { C: 1 } }] },
};

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP grammar end-to-end runs: the sandbox needs bubblewrap (${noBwrap})`);

describe.skipIf(!!noBwrap)("rendered programs run in the sandbox on built-in tasks of every modality", () => {
  it.each(Object.keys(E2E))("%s: success, a validation score and a hidden test score", async (id) => {
    const task = await resolveTask(id);
    const spec = { ...base, ...E2E[id]! } as SolutionSpec;
    const code = renderProgram(spec, task, { plan: `end-to-end test of ${id}` });
    const r = await runSandbox({ task, code, limits: { timeoutS: 150, memoryMb: 4096, cpus: 2 } });
    expect({ status: r.status, sig: r.errorSignature, tb: r.traceback }).toEqual({ status: "success", sig: null, tb: null });
    expect(Number.isFinite(r.validScore)).toBe(true);
    expect(Number.isFinite(r.testScore)).toBe(true);
    if (spec.modality === "audio") {
      // Test speakers are unseen: validation holds out whole speakers, and the digits are recognised far above chance (0.1).
      expect(r.stdoutTail).toContain("validation holds out whole groups of 'speaker'");
      expect(r.testScore!).toBeGreaterThan(0.5);
      expect(Math.abs(r.validScore! - r.testScore!)).toBeLessThan(0.15);
    }
  }, 240_000);
});
