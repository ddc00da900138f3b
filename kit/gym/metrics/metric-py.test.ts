import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { scoreMany } from "../score-submission.js";
import { renderMetricPy } from "./metric-py.js";
import { METRIC_NAMES, METRICS, getMetric, type MetricName } from "./registry.js";

// Table of hand-computed values (worked out in the comments), scored by the generated metric.py
// through the real Python harness, all cases in one interpreter.
interface Case { metric: MetricName; columns: string[]; answers: (string | number)[][]; submission: (string | number)[][]; expected: number }
const E1 = 1.718281828459045; // e - 1, so log1p(E1) = 1

const CASES: Case[] = [
  // 3 of 4 labels right
  { metric: "accuracy", columns: ["y"], answers: [["a"], ["b"], ["a"], ["c"]], submission: [["a"], ["b"], ["b"], ["c"]], expected: 0.75 },
  // class a: P=1, R=1/2, F1=2/3; class b: P=2/3, R=1, F1=0.8; mean 0.733333
  { metric: "macro_f1", columns: ["y"], answers: [["a"], ["a"], ["b"], ["b"]], submission: [["a"], ["b"], ["b"], ["b"]], expected: (2 / 3 + 0.8) / 2 },
  // positives {0.35, 0.8} vs negatives {0.1, 0.4}: 3 of 4 pairs ordered
  { metric: "roc_auc", columns: ["y"], answers: [[0], [0], [1], [1]], submission: [[0.1], [0.4], [0.35], [0.8]], expected: 0.75 },
  // column A: 2/4 pairs; B: 3/3; C: 2.5/3 (one tie); mean 0.777778
  { metric: "roc_auc_ovr", columns: ["A", "B", "C"], answers: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]],
    submission: [[0.9, 0.05, 0.05], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4], [0.1, 0.5, 0.4]], expected: (0.5 + 1 + 2.5 / 3) / 3 },
  // row 1 (0.4, 0.1) renormalises to (0.8, 0.2); loss = -(ln 0.8 + ln 0.6) / 2
  { metric: "log_loss", columns: ["x", "y"], answers: [[1, 0], [0, 1]], submission: [[0.4, 0.1], [0.4, 0.6]], expected: -(Math.log(0.8) + Math.log(0.6)) / 2 },
  // errors 1, 0, 2: sqrt(5/3)
  { metric: "rmse", columns: ["v"], answers: [[1], [2], [3]], submission: [[2], [2], [5]], expected: Math.sqrt(5 / 3) },
  // log1p: truth (0, 1), prediction (1, 1): sqrt(1/2)
  { metric: "rmsle", columns: ["v"], answers: [[0], [E1]], submission: [[E1], [E1]], expected: Math.sqrt(0.5) },
  { metric: "mae", columns: ["v"], answers: [[1], [2], [3]], submission: [[2], [2], [5]], expected: 1 },
  // SSres = 1, SStot = 2
  { metric: "r2", columns: ["v"], answers: [[1], [2], [3]], submission: [[1], [2], [4]], expected: 0.5 },
  // rounded predictions (0, 1, 1, 2); weighted observed 0.25, weighted expected 1.25: 1 - 0.25/1.25
  { metric: "qwk", columns: ["g"], answers: [[0], [1], [2], [2]], submission: [[0], [1], [1.2], [2.4]], expected: 0.8 },
  // hit at rank 1, rank 2, miss: (1 + 1/2 + 0) / 3
  { metric: "map_at_k", columns: ["y"], answers: [["a"], ["b"], ["c"]], submission: [["a b c"], ["c b a"], ["x y z"]], expected: 0.5 },
];

const dir = mkdtempSync(join(tmpdir(), "metric-py-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function csv(columns: string[], rows: (string | number)[][]): string {
  return [["id", ...columns].join(","), ...rows.map((r, i) => [i + 1, ...r].join(","))].join("\n") + "\n";
}

describe("metric registry", () => {
  test("every registry metric has a hand-computed case", () => {
    expect(new Set(CASES.map((c) => c.metric))).toEqual(new Set(METRIC_NAMES));
  });

  test("an unknown metric names the valid ones", () => {
    expect(() => getMetric("auc")).toThrow(/unknown metric "auc".*accuracy, macro_f1/);
  });

  test("generated metric.py files score the hand-computed values and reject a missing column", async () => {
    const jobs = CASES.flatMap((c, i) => {
      const metricPy = join(dir, `m${i}.py`);
      writeFileSync(metricPy, renderMetricPy(c.metric, { taskId: "t", idColumn: "id", columns: c.columns }));
      writeFileSync(join(dir, `a${i}.csv`), csv(c.columns, c.answers));
      writeFileSync(join(dir, `s${i}.csv`), csv(c.columns, c.submission));
      writeFileSync(join(dir, `self${i}.csv`), csv(c.columns, c.answers));
      writeFileSync(join(dir, `bad${i}.csv`), "id\n" + c.answers.map((_, k) => k + 1).join("\n") + "\n");
      return [`s${i}`, `self${i}`, `bad${i}`].map((s) => ({ metricPy, answersCsv: join(dir, `a${i}.csv`), submissionCsv: join(dir, `${s}.csv`) }));
    });
    const results = await scoreMany(jobs);
    CASES.forEach((c, i) => {
      const [sub, self, bad] = results.slice(3 * i, 3 * i + 3);
      expect(sub, c.metric).toMatchObject({ ok: true });
      expect((sub as { score: number }).score, c.metric).toBeCloseTo(c.expected, 6);
      expect((self as { score: number }).score, `${c.metric} self`).toBeCloseTo(METRICS[c.metric].best, 6);
      expect(bad, `${c.metric} missing column`).toMatchObject({ ok: false, kind: "invalid" });
      expect((bad as { message: string }).message).toMatch(/missing column/);
    });
  }, 300_000);
});
