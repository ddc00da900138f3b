import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTask } from "../../gym/index.js";
import { runSandbox } from "../../sandbox/index.js";
import { createRng } from "../../util/rng.js";
import { createGrammarPolicy } from "./grammar-policy.js";
import { NO_PARENTS } from "./test-helpers/tasks.js";

// A package in the published style whose metric is only a class (HousePricesMetric, RMSLE named in its docstring).
const FIXTURE = join(import.meta.dirname, "../../gym/test-helpers/house-prices-style");
const tmp = mkdtempSync(join(tmpdir(), "opaque-metric-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The same package with a metric class whose name and docstring say nothing (`class Metric`). */
function opaqueCopy(): string {
  const dir = join(tmp, "house-prices-opaque-metric");
  cpSync(FIXTURE, dir, { recursive: true });
  const metric = join(dir, "utils", "metric.py");
  const src = readFileSync(metric, "utf8");
  const opaque = src.replace("class HousePricesMetric:", "class Metric:").replace(/""".*RMSLE.*"""/, '"""Scores a submission of this competition against the held-out answers."""');
  if (opaque === src || /rmsle|logarithm/i.test(opaque)) throw new Error("the fixture's metric.py changed: update opaqueCopy()");
  writeFileSync(metric, opaque);
  return dir;
}

describe("grammar programs validate with the task's own metric", () => {
  it("a class-only RMSLE metric: the program's validation score is RMSLE (not RMSE in dollars), close to the hidden test score", async () => {
    const task = await loadTask(FIXTURE);
    const out = await createGrammarPolicy().propose(task, "draft", NO_PARENTS, createRng(1));
    expect(out.code).toContain(`METRIC = "rmsle"  # the task's metric`);
    const rec = await runSandbox({ task, code: out.code, limits: { timeoutS: 120 } });
    expect(rec.status).toBe("success");
    // RMSLE of house prices is a fraction (~0.1–0.5); RMSE would be tens of thousands of dollars.
    expect(rec.validScore!).toBeGreaterThan(0);
    expect(rec.validScore!).toBeLessThan(1);
    expect(Math.abs(rec.validScore! - rec.testScore!)).toBeLessThan(0.5 * rec.testScore! + 0.05);
  }, 300_000);

  it("a class whose name and docstring say nothing (Metric): its behaviour on a probe makes the program validate with RMSLE", async () => {
    const task = await loadTask(opaqueCopy());
    expect(task.meta).toMatchObject({ metric: "Metric", metricKind: "rmsle", higherIsBetter: false, taskType: "regression" });
    const out = await createGrammarPolicy().propose(task, "draft", NO_PARENTS, createRng(1));
    expect(out.code).toContain(`METRIC = "rmsle"  # the task's metric`);
  }, 60_000);
});
