# Cost of kit/policy's one-thread forest predict: a 300-tree forest fitted with 2 jobs, then 4,000 rows predicted with
# 2 jobs and with 1 (bench/erl/runs/2026-12-06-learning-25-grading-differences.md):
#   OMP_NUM_THREADS=2 /usr/bin/python3 bench/erl/forest-predict-cost.py
import time, numpy as np
from sklearn.ensemble import RandomForestRegressor
rng = np.random.default_rng(0)
X = rng.normal(size=(16000, 30)); y = X[:, 0] * 3 + np.sin(X[:, 1]) + rng.normal(size=16000)
for r in range(3):
    s = time.perf_counter(); m = RandomForestRegressor(n_estimators=300, max_depth=20, min_samples_leaf=3, n_jobs=2, random_state=0).fit(X, y); fit = time.perf_counter() - s
    s = time.perf_counter(); m.predict(X[:4000]); p2 = time.perf_counter() - s
    m.set_params(n_jobs=1); s = time.perf_counter(); m.predict(X[:4000]); p1 = time.perf_counter() - s
    print(f"fit {fit:.2f} s, predict 4000 rows: 2 jobs {p2:.3f} s, 1 job {p1:.3f} s")
