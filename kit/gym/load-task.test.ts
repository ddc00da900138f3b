import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { checkTask } from "./check-task.js";
import { MetricLoadError, TaskPackageError } from "./errors.js";
import { hashTree } from "./hash-tree.js";
import { inferHigherIsBetter, resolveMetricKind } from "./infer-meta.js";
import { loadTask } from "./load-task.js";
import { scoreSubmission } from "./score-submission.js";

// A package in the paper's published format: no task.json, a metric class with its own name.
const FIXTURE = join(import.meta.dirname, "test-helpers", "paper-task");
const tmp = mkdtempSync(join(tmpdir(), "gym-load-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("paper-format packages", () => {
  test("load, score and pass the checks unmodified", async () => {
    const before = hashTree(FIXTURE, ["."]);
    const task = await loadTask(FIXTURE);
    expect(task.meta).toMatchObject({
      id: "paper-task", idColumn: "customer_id", targetColumns: ["churned"], trainTarget: "churned",
      metric: "ChurnAucScore", higherIsBetter: true, modality: "tabular", taskType: "classification", nTrain: 160, nTest: 40,
    });
    expect(task.description).toMatch(/churn/);
    const [self, sample, bad] = await Promise.all(
      [join(task.privateDir, "test_answer.csv"), join(task.publicDir, "sample_submission.csv"), join(task.publicDir, "test.csv")].map((f) => scoreSubmission(task, f)),
    );
    expect(self).toEqual({ ok: true, score: 1 });
    expect(sample).toEqual({ ok: true, score: 0.5 });
    expect(bad).toEqual({ ok: false, kind: "invalid", message: "submission lacks column 'churned'" });
    const report = await checkTask(task);
    expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);
    expect(report.metricValid).toBe(true);
    expect(report.checks.find((c) => c.name === "prepare_deterministic")?.status).toBe("pass");
    expect(hashTree(FIXTURE, ["."])).toBe(before); // nothing written into the package
  }, 300_000);

  test("a published-style package: prepare() that does not create its folders, a metric that is only a class, shipped data from another pandas", async () => {
    const fixture = join(import.meta.dirname, "test-helpers", "house-prices-style");
    const before = hashTree(fixture, ["."]);
    const task = await loadTask(fixture);
    expect(task.meta).toMatchObject({ metric: "HousePricesMetric", metricKind: "rmsle", higherIsBetter: false, targetColumns: ["SalePrice"], idColumn: "Id", taskType: "regression" });
    const report = await checkTask(task);
    expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.checks.find((c) => c.name === "prepare_deterministic")).toMatchObject({ status: "pass" });
    // The shipped train/test CSVs hold "" where this machine's pandas writes "None": a drift warning, not a failure.
    const drift = report.checks.find((c) => c.name === "data_drift")!;
    expect(drift.status).toBe("warn");
    const files = drift.evidence.files as { file: string; line: number; a: string; b: string }[];
    expect(files.map((f) => f.file)).toEqual(["public/test.csv", "public/train.csv"]);
    expect(files[1]!.line).toBe(3);
    expect([files[1]!.a, files[1]!.b]).toEqual(["232,3668,917,5,1963,None,CollgCr,81800", "232,3668,917,5,1963,,CollgCr,81800"]);
    expect(drift.message).toMatch(/public\/train.csv line 3/);
    expect(hashTree(fixture, ["."])).toBe(before);
  }, 300_000);

  test("prepare runs that differ from each other fail determinism, naming the file and line", async () => {
    const dir = join(tmp, "random-split");
    cpSync(join(import.meta.dirname, "test-helpers", "house-prices-style"), dir, { recursive: true });
    writeFileSync(join(dir, "utils", "prepare.py"), [
      "import random",
      "from pathlib import Path",
      "def prepare(raw: Path, public: Path, private: Path):",
      "    for d, f in [(public, 'train.csv'), (public, 'test.csv'), (public, 'sample_submission.csv'), (private, 'test_answer.csv')]:",
      "        (d / f).write_text((raw / 'houses.csv').read_text() if f != 'train.csv' else f'x\\n{random.random()}\\n')",
    ].join("\n"));
    const { prepareDeterminism } = await import("./check-task.js");
    const [det] = await prepareDeterminism(await loadTask(dir).catch(() => ({ dir, meta: {} }) as never));
    expect(det!.status).toBe("fail");
    expect(det!.message).toMatch(/public\/train.csv line 2/);
  }, 300_000);

  test("a metric that crashes in evaluate is a typed error carrying the Python message", async () => {
    const dir = join(tmp, "crashy");
    cpSync(FIXTURE, dir, { recursive: true });
    writeFileSync(join(dir, "utils", "metric.py"), [
      "class Crashy:",
      "    def __init__(self, value='churned', higher_is_better=True): pass",
      "    def validate_submission(self, submission, ground_truth): pass",
      "    def evaluate(self, y_true, y_pred): raise RuntimeError('boom in evaluate')",
    ].join("\n"));
    const task = await loadTask(dir);
    expect(await scoreSubmission(task, join(task.publicDir, "sample_submission.csv"))).toEqual({ ok: false, kind: "error", message: "RuntimeError: boom in evaluate" });
  }, 300_000);

  test.each([
    ["unreadable", "def broken(:\n", /cannot be imported: SyntaxError.*Fix:/],
    ["class-less", "def evaluate(a, b):\n    return 1.0\n", /has no class with evaluate\(\) and validate_submission\(\).*Fix:/],
  ])("an %s metric.py names the file and the fix", async (name, source, message) => {
    const dir = join(tmp, name);
    cpSync(FIXTURE, dir, { recursive: true });
    writeFileSync(join(dir, "utils", "metric.py"), source);
    const err = await loadTask(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MetricLoadError);
    expect((err as MetricLoadError).message).toMatch(message);
    expect((err as MetricLoadError).message).toContain(join(dir, "utils", "metric.py"));
  });

  test("a folder without the package layout says what is missing", async () => {
    const err = await loadTask(tmp).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskPackageError);
    expect((err as Error).message).toMatch(/data\/public\/ is missing.*Fix:/);
  });
});

describe("resolveMetricKind: the metric a class computes, from its name, then its docstring", () => {
  test.each([
    ["HousePricesMetric", "Root mean squared logarithmic error (RMSLE) between prices.", false, "rmsle"],
    ["RootMeanSquaredLogError", "", false, "rmsle"],
    ["RMSEScore", "", false, "rmse"],
    ["Score", "Mean absolute error of the predictions.", false, "mae"],
    ["ChurnAucScore", "ROC-AUC of the churn probability.", true, "rocauc"],
    ["Grader", "Macro-averaged F1 over the weather classes.", true, "macrof1"],
    ["Grader", "Quadratic weighted kappa.", true, "qwk"],
    ["LogLossMetric", "", false, "logloss"],
    ["MyMetric", "Accuracy, but lower is better?", false, null], // the direction disagrees: unknown
    ["MyMetric", "A custom business score.", true, null],
  ])("%s / %j (higher=%s) → %s", (class_name, doc, higher, kind) => {
    expect(resolveMetricKind({ class_name, doc }, higher)).toBe(kind);
  });
});

describe("inferHigherIsBetter", () => {
  test.each([
    [{ higher_is_better: false }, "AnyName", false],
    [{ higher_is_better: true }, "RMSE", true],
    [{}, "HousePriceRMSE", false],
    [{}, "MulticlassLogLoss", false],
    [{}, "MeanAbsoluteError", false],
    [{}, "ChurnAuc", true],
    [{ value: "target" }, "Accuracy", true],
  ])("defaults %j, class %s -> %s", (defaults, cls, expected) => {
    expect(inferHigherIsBetter({ class_name: cls, init_defaults: defaults, required: [], doc: "" })).toBe(expected);
  });
});
