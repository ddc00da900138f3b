import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRng } from "../../util/rng.js";
import { renderProgram } from "./render-program.js";
import type { SolutionSpec } from "./spec.js";
import { metaTask } from "./test-helpers/tasks.js";

// A random walk: tomorrow ≈ today. Lags read from true targets inside the holdout make a validation
// score the test set (whose lags can only carry the last training value forward) never sees.
const dir = mkdtempSync(join(tmpdir(), "grammar-ts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeWalk(): number[] {
  const rng = createRng(11);
  const ys: number[] = [];
  let v = 100;
  for (let i = 0; i < 400; i++) ys.push((v += (rng.next() - 0.5) * 10));
  const day = (i: number) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
  const rows = ys.map((y, i) => ({ id: i, date: day(i), noise: Math.round(rng.next() * 1000) / 1000, y }));
  const [train, test] = [rows.slice(0, 320), rows.slice(320)];
  writeFileSync(join(dir, "train.csv"), ["id,date,noise,y", ...train.map((r) => `${r.id},${r.date},${r.noise},${r.y}`)].join("\n") + "\n");
  writeFileSync(join(dir, "test.csv"), ["id,date,noise", ...test.map((r) => `${r.id},${r.date},${r.noise}`)].join("\n") + "\n");
  writeFileSync(join(dir, "sample_submission.csv"), ["id,y", ...test.map((r) => `${r.id},0`)].join("\n") + "\n");
  return test.map((r) => r.y);
}

describe("honest time-series validation in grammar programs", () => {
  it("the holdout is featurised like the test set: validation RMSE is not far better than test RMSE", () => {
    const truth = writeWalk();
    const task = { ...metaTask({ modality: "time_series", taskType: "regression", metric: "rmse", higherIsBetter: false, classes: undefined, targetColumns: ["y"], trainTarget: "y", nTrain: 320 }), publicDir: dir };
    const spec: SolutionSpec = {
      version: 1, modality: "time_series", taskType: "regression",
      features: { kind: "time_series", lags: [1, 2, 7], windows: [7], calendar: false, exogenousLags: false, difference: false },
      models: [{ family: "linear", params: { alpha: 1 } }], ensemble: "none",
      validation: { scheme: "time_holdout", folds: 5, holdoutFrac: 0.2 }, maxTrainRows: null, writer: "sample", seed: 1,
    };
    const main = join(dir, "main.py");
    writeFileSync(main, renderProgram(spec, task));
    const r = spawnSync("/usr/bin/python3", [main], { cwd: dir, env: { PATH: "/usr/bin:/bin", DATA_DIR: dir, OMP_NUM_THREADS: "1" }, encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const valid = Number(/Final Validation Score: (\S+)/.exec(r.stdout)![1]);
    const sub = readFileSync(join(dir, "submission.csv"), "utf8").trim().split("\n").slice(1).map((l) => Number(l.split(",")[1]));
    const test = Math.sqrt(sub.reduce((s, p, i) => s + (p - truth[i]!) ** 2, 0) / sub.length);
    // Leaky lags (yesterday's true value inside the holdout) give validation RMSE ≈ the step size (~3),
    // an order of magnitude below the test RMSE; honest features give the same order as the test.
    expect(valid).toBeGreaterThan(test / 3);
  }, 180_000);

  // A trend with a season (like co2-concentration): tree models cannot extrapolate the trend, so a stacker
  // fitted with shuffled folds inside the holdout learned contrasts of the models that exploded on the
  // future (co2: validation RMSE 6.4, test 377). Forward-chained stacker folds and non-negative weights.
  it("a stacked time-series regression validates like it tests on a trending series", () => {
    const rng = createRng(5);
    const ys = Array.from({ length: 400 }, (_, i) => 300 + 0.15 * i + 3 * Math.sin((2 * Math.PI * i) / 12) + (rng.next() - 0.5));
    const day = (i: number) => new Date(Date.UTC(1960, i, 1)).toISOString().slice(0, 10);
    const rows = ys.map((y, i) => ({ id: i, date: day(i), y }));
    const sdir = join(dir, "trend");
    spawnSync("mkdir", ["-p", sdir]);
    writeFileSync(join(sdir, "train.csv"), ["id,date,y", ...rows.slice(0, 320).map((r) => `${r.id},${r.date},${r.y}`)].join("\n") + "\n");
    writeFileSync(join(sdir, "test.csv"), ["id,date", ...rows.slice(320).map((r) => `${r.id},${r.date}`)].join("\n") + "\n");
    writeFileSync(join(sdir, "sample_submission.csv"), ["id,y", ...rows.slice(320).map((r) => `${r.id},0`)].join("\n") + "\n");
    const task = { ...metaTask({ modality: "time_series", taskType: "regression", metric: "rmse", higherIsBetter: false, classes: undefined, targetColumns: ["y"], trainTarget: "y", nTrain: 320 }), publicDir: sdir };
    const spec: SolutionSpec = {
      version: 1, modality: "time_series", taskType: "regression",
      features: { kind: "time_series", lags: [1, 2, 3, 7, 14], windows: [3, 7], calendar: false, exogenousLags: true, difference: false },
      models: [{ family: "linear", params: { alpha: 0.3 } }, { family: "hist_gb", params: { max_iter: 50, learning_rate: 0.2, max_leaf_nodes: 15 } },
        { family: "gradient_boosting", params: { n_estimators: 150, learning_rate: 0.05, max_depth: 3 } }], ensemble: "stack",
      validation: { scheme: "time_holdout", folds: 5, holdoutFrac: 0.2 }, maxTrainRows: null, writer: "sample", seed: 1,
    };
    const main = join(sdir, "main.py");
    writeFileSync(main, renderProgram(spec, task));
    const r = spawnSync("/usr/bin/python3", [main], { cwd: sdir, env: { PATH: "/usr/bin:/bin", DATA_DIR: sdir, OMP_NUM_THREADS: "1" }, encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const valid = Number(/Final Validation Score: (\S+)/.exec(r.stdout)![1]);
    const sub = readFileSync(join(sdir, "submission.csv"), "utf8").trim().split("\n").slice(1).map((l) => Number(l.split(",")[1]));
    const truth = rows.slice(320).map((x) => x.y);
    const test = Math.sqrt(sub.reduce((s, p, i) => s + (p - truth[i]!) ** 2, 0) / sub.length);
    expect(test).toBeLessThan(3 * valid);
  }, 180_000);
});
