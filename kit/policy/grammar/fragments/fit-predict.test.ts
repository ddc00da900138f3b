import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fitPredict } from "./models.js";

// Real Python: a forest fitted with two jobs, predicted again and again by fit_predict, must give the same bits.
// Without the one-thread predict, scikit-learn adds the trees in the order its threads finish (5 of 5 reruns
// differed in the last bits on this machine).
function hashes(taskType: "regression" | "classification"): string[] {
  const script = `
import hashlib
import numpy as np
from sklearn.ensemble import ExtraTreesClassifier, RandomForestRegressor
TASK_TYPE, N_CLASSES = "${taskType}", 3
${fitPredict.code}
rng = np.random.default_rng(0)
X = rng.normal(size=(4000, 12))
y = (X[:, 0] * 3 + np.sin(X[:, 1]) + rng.normal(size=4000)) if TASK_TYPE == "regression" else (X[:, 0] > 0).astype(int) + (X[:, 1] > 1)
make = (lambda: RandomForestRegressor(n_estimators=60, max_depth=10, n_jobs=2, random_state=0)) if TASK_TYPE == "regression" \\
    else (lambda: ExtraTreesClassifier(n_estimators=60, max_depth=10, n_jobs=2, random_state=0))
for _ in range(4):
    print(hashlib.md5(np.ascontiguousarray(fit_predict(make, X[:2500], y[:2500], X[2500:])).tobytes()).hexdigest())
`;
  const r = spawnSync("/usr/bin/python3", ["-c", script], {
    env: { PATH: "/usr/bin:/bin", OMP_NUM_THREADS: "2" }, encoding: "utf8", timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim().split("\n");
}

describe("fit_predict", () => {
  it.each(["regression", "classification"] as const)("predicts a two-job forest with the same bits every run (%s)", (t) => {
    const h = hashes(t);
    expect(h).toHaveLength(4);
    expect(new Set(h).size).toBe(1);
  }, 120_000);
});
