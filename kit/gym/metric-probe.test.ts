import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { metricKindFromProbe, type DataProfile } from "./infer-meta.js";
import { probeMetric } from "./load-task.js";

// Metric classes whose name and docstring say nothing (`class Metric`): the probe calls each on
// made-up submissions of the task's shape and names the metric whose values it reproduces. The
// published-style fixture test-helpers/house-prices-style, with its class renamed `Metric` and an
// uninformative docstring, is loaded (metricKind rmsle) in
// kit/policy/grammar/task-metric.test.ts.
const dir = mkdtempSync(join(tmpdir(), "metric-probe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLASS = (hib: boolean, body: string) => `import numpy as np
${body.includes("metrics.") ? "from sklearn import metrics\n" : ""}

class Metric:
    """Scores a submission against the answers."""

    def __init__(self, value: str = "y", higher_is_better: bool = ${hib ? "True" : "False"}):
        self.value = value
        self.higher_is_better = higher_is_better

    def evaluate(self, y_true, y_pred):
        m = y_true.merge(y_pred, on="id", suffixes=("_t", "_p"))
        cols = [c for c in y_true.columns if c != "id"]
${body}

    def validate_submission(self, submission, ground_truth):
        if len(submission) != len(ground_truth):
            raise ValueError("wrong row count")
`;
const T = "m[self.value + '_t']";
const P = "m[self.value + '_p']";

const profile = (targets: string[], target: DataProfile["target"]): DataProfile => ({
  sampleColumns: ["id", ...targets], idColumn: "id", targetColumns: targets, trainTarget: targets.length === 1 ? targets[0]! : null,
  trainColumns: [], testColumns: [], nTrain: 100, nTest: 20, columns: [], target, files: { image: 0, audio: 0, text: 0 },
});
const REG = profile(["y"], { numeric: true, unique: 90, classes: null });
const LABELS = profile(["y"], { numeric: false, unique: 3, classes: ["a", "b", "c"] });
const BINARY = profile(["y"], { numeric: true, unique: 2, classes: [0, 1] });
const MULTI = profile(["a", "b", "c"], null);

// [name, higher is better, evaluate body, profile, sample value(s), expected kind]
const CASES: [string, boolean, string, DataProfile, string, string][] = [
  ["mean absolute error", false, `        return float(np.mean(np.abs(${T} - ${P})))`, REG, "5.0", "mae"],
  ["R²", true, `        return float(metrics.r2_score(${T}, ${P}))`, REG, "5.0", "r2"],
  ["accuracy", true, `        return float(np.mean(${T} == ${P}))`, LABELS, "a", "accuracy"],
  ["macro F1", true, `        return float(metrics.f1_score(${T}, ${P}, average="macro"))`, LABELS, "a", "macrof1"],
  ["ROC AUC", true, `        return float(metrics.roc_auc_score(${T}, ${P}))`, BINARY, "0.5", "rocauc"],
  ["multi-class log loss", false, `        return float(metrics.log_loss(m[[c + "_t" for c in cols]].values.argmax(axis=1), m[[c + "_p" for c in cols]].values, labels=[0, 1, 2]))`, MULTI, "0.3,0.3,0.4", "logloss"],
];

describe("metric behaviour probe", () => {
  it.concurrent.each(CASES)("a class computing %s is recognised by its scores", async (name, hib, body, p, value, kind) => {
    const sub = mkdtempSync(join(dir, "case-"));
    writeFileSync(join(sub, "metric.py"), CLASS(hib, body));
    writeFileSync(join(sub, "sample.csv"), [`id,${p.targetColumns.join(",")}`, ...Array.from({ length: 20 }, (_, i) => `${i},${value}`)].join("\n") + "\n");
    const matches = await probeMetric(join(sub, "metric.py"), join(sub, "sample.csv"), p);
    expect(metricKindFromProbe(matches, hib), `${name}: matches ${matches.join(",")}`).toBe(kind);
  }, 60_000);

  it("a class that rejects the probe, or computes something unknown, gives no kind", async () => {
    const sub = mkdtempSync(join(dir, "odd-"));
    writeFileSync(join(sub, "metric.py"), CLASS(false, `        return float(np.mean(np.abs(${T} - ${P}) ** 3))`));
    writeFileSync(join(sub, "sample.csv"), ["id,y", ...Array.from({ length: 20 }, (_, i) => `${i},1`)].join("\n") + "\n");
    expect(metricKindFromProbe(await probeMetric(join(sub, "metric.py"), join(sub, "sample.csv"), REG), false)).toBeNull();
    writeFileSync(join(sub, "short.csv"), "id,y\n1,1\n");
    expect(await probeMetric(join(sub, "metric.py"), join(sub, "short.csv"), REG)).toEqual([]);
  }, 60_000);

  it("metricKindFromProbe keeps the first kind, in METRIC_KINDS order, whose direction agrees", () => {
    expect(metricKindFromProbe(["mse", "rmse"], false)).toBe("rmse");
    expect(metricKindFromProbe(["accuracy", "balancedaccuracy"], true)).toBe("balancedaccuracy");
    expect(metricKindFromProbe(["rmse"], true)).toBeNull();
    expect(metricKindFromProbe([], true)).toBeNull();
  });
});
