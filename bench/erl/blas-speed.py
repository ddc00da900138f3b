# OpenBLAS kernels side by side: a 1500² matmul, a Ridge and a logistic fit
# (bench/erl/runs/2026-12-06-learning-25-grading-differences.md); the first argument is a label; OPENBLAS_CORETYPE
# picks the kernels.
import sys, time, numpy as np
from sklearn.linear_model import LogisticRegression, Ridge
rng = np.random.default_rng(0)
A = rng.random((1500, 1500)); B = rng.random((1500, 1500))
X = rng.normal(size=(20000, 200)); yc = (X[:, 0] + rng.normal(size=20000) > 0).astype(int)
def best(f, n=5):
    t = []
    for _ in range(n):
        s = time.perf_counter(); f(); t.append(time.perf_counter() - s)
    return sorted(t)[n // 2]
print(sys.argv[1], f"matmul {best(lambda: A @ B):.3f}", f"ridge {best(lambda: Ridge().fit(X, X[:, 1])):.3f}",
      f"logreg {best(lambda: LogisticRegression(max_iter=300).fit(X, yc), 3):.3f}")
