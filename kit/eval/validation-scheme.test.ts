import { describe, expect, it } from "vitest";
import { validationScheme } from "./validation-scheme.js";

describe("validationScheme: which validation a printed score came from", () => {
  it.each([
    ['VALIDATION, FOLDS, HOLDOUT_FRAC = "kfold", 3, 0.2', "kfold", 3, null, "3-fold CV"],
    ['VALIDATION, FOLDS, HOLDOUT_FRAC = "holdout", 5, 0.2', "holdout", null, 0.2, "20 % holdout"],
    ['VALIDATION, FOLDS, HOLDOUT_FRAC = "time_holdout", 5, 0.25', "time_holdout", null, 0.25, "time-ordered 25 % holdout"],
    ["cv = StratifiedKFold(n_splits=5, shuffle=True)", "kfold", 5, null, "5-fold CV"],
    ["for tr, va in KFold(4).split(X):", "kfold", 4, null, "4-fold CV"],
    ["s = cross_val_score(model, X, y,\n    scoring='r2', cv=10)", "kfold", 10, null, "10-fold CV"],
    ["TimeSeriesSplit(n_splits=3)", "time_kfold", 3, null, "3-fold time-series CV"],
    ["X_tr, X_va = train_test_split(X, test_size=0.15, random_state=0)", "holdout", null, 0.15, "15 % holdout"],
    ["a, b = train_test_split(df, test_size=200)", "holdout", null, 200, "200 rows holdout"],
    ["model.fit(X, y); print(model.score(X, y))", "unknown", null, null, "unknown"],
  ])("%s → %s", (code, kind, folds, holdout, label) => {
    expect(validationScheme(code)).toEqual({ kind, folds, holdout, label });
  });

  it("the grammar's constants line wins over sklearn names elsewhere in the program; no code is unknown", () => {
    const code = 'VALIDATION, FOLDS, HOLDOUT_FRAC = "holdout", 3, 0.2\nfrom sklearn.model_selection import KFold\nKFold(3)';
    expect(validationScheme(code).label).toBe("20 % holdout");
    expect(validationScheme(null).kind).toBe("unknown");
    expect(validationScheme("").kind).toBe("unknown");
  });
});
