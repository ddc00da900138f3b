import type { SolutionSpec } from "../spec.js";
import { fragment, fromImport, type Fragment, type PyImport } from "./fragment.js";

/** Whether the program stacks its models (ENSEMBLE == "stack"): a stacker needs two models or more. */
export const stacks = (s: SolutionSpec): boolean => s.ensemble === "stack" && s.models.length > 1;

export const stackMatrix = fragment(
  "ensemble.stack_matrix",
  { defines: ["stack_matrix"], uses: ["np"] },
  `
def stack_matrix(preds):
    return np.column_stack([p if p.ndim == 2 else p.reshape(-1, 1) for p in preds])

`,
);

/**
 * The time-series regression stacker: weights on the simplex (non-negative, summing to 1), i.e. a weighted
 * average of the models, so the stack cannot scale its models' predictions past their range. Non-negative
 * weights alone did: on co2-concentration, models predicting the change from the last known value gave
 * near-zero changes over the horizon and the stacker multiplied them by ~270 to fit the holdout's trend
 * (validation RMSE 7.8, test 59; honest-validation.test.ts).
 *
 * scipy's `minimize` is imported only when the program stacks (`stacked`); otherwise nothing makes a
 * ConvexStack and the name is dormant.
 */
export function convexStack(stacked: boolean): Fragment {
  return fragment(
    "ensemble.convex_stack",
    { defines: ["ConvexStack"], uses: ["np", ...(stacked ? ["minimize"] : [])], dormant: stacked ? [] : ["minimize"] },
    `
class ConvexStack:
    """Stack weights on the simplex: a weighted average of the models (least squares, SLSQP)."""
    def fit(self, Z, y):
        k = Z.shape[1]
        res = minimize(lambda w: float(np.mean((Z @ w - y) ** 2)), np.full(k, 1.0 / k),
                       jac=lambda w: 2.0 * Z.T @ (Z @ w - y) / len(y), bounds=[(0.0, 1.0)] * k, method="SLSQP",
                       constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1.0, "jac": lambda w: np.ones(k)}])
        w = np.clip(res.x, 0.0, None) if res.success else np.full(k, 1.0 / k)
        self.coef_ = w / w.sum() if w.sum() > 0 else np.full(k, 1.0 / k)
        return self

    def predict(self, Z):
        return Z @ self.coef_
`,
  );
}

/** The stacker of a composition: its constructor, and the import or class it needs. */
export interface Stacker {
  readonly expr: string;
  readonly needs: string;
  readonly import: PyImport;
}

/** i.i.d. programs stack with a logistic regression (classes) or a ridge regression (values). */
export const linearStacker = (s: SolutionSpec): Stacker =>
  s.taskType === "classification"
    ? {
        expr: "LogisticRegression(C=1.0, max_iter=500)",
        needs: "LogisticRegression",
        import: fromImport("sklearn.linear_model", "LogisticRegression"),
      }
    : { expr: "Ridge(alpha=1.0)", needs: "Ridge", import: fromImport("sklearn.linear_model", "Ridge") };

/** Time-series programs stack classes like i.i.d. ones, values with ConvexStack (scipy's minimize). */
export const timeSeriesStacker = (s: SolutionSpec): Stacker =>
  s.taskType === "classification"
    ? linearStacker(s)
    : { expr: "ConvexStack()", needs: "ConvexStack", import: fromImport("scipy.optimize", "minimize") };

/**
 * `meta_model()`, the stacker. Without stacking nothing calls it, and its class may be left unimported:
 * the name is dormant then.
 */
export function metaModel(stacker: Stacker, stacked: boolean): Fragment {
  const names = stacked ? { uses: [stacker.needs] } : { dormant: [stacker.needs] };
  return fragment(
    "ensemble.meta_model",
    { defines: ["meta_model"], ...names },
    `
def meta_model():
    return ${stacker.expr}
`,
  );
}

export const combine = fragment(
  "ensemble.combine",
  { defines: ["combine"], uses: ["ENSEMBLE", "fit_predict", "meta_model", "stack_matrix", "np"] },
  `
def combine(preds, Z_fit=None, y_fit=None):
    """Average the models, or apply the stacker fitted on validation predictions."""
    if ENSEMBLE == "stack" and Z_fit is not None:
        return fit_predict(meta_model, Z_fit, y_fit, stack_matrix(preds))
    return np.mean(preds, axis=0)
`,
);

const OUT_OF_FOLD_USES = [
  "stack_matrix",
  "val_preds",
  "ENSEMBLE",
  "np",
  "SEED",
  "fit_predict",
  "meta_model",
  "y_val_fit",
  "combine",
];
const outOfFold = (name: string, defines: readonly string[], uses: readonly string[], body: string) =>
  fragment(
    name,
    { defines: ["Z_val", "val_pred", ...defines], uses: [...OUT_OF_FOLD_USES, ...uses] },
    `
Z_val = stack_matrix(val_preds) if ENSEMBLE == "stack" else None
if ENSEMBLE == "stack":  # out-of-fold predictions of the stacker, for an honest score
${body}else:
    val_pred = combine(val_preds)
`,
  );

/** The validation predictions of the ensemble; a stacker's are out-of-fold over 3 shuffled folds. */
export const iidOutOfFold = outOfFold(
  "ensemble.out_of_fold",
  ["KFold", "a", "b"],
  [],
  `    from sklearn.model_selection import KFold
    val_pred = np.zeros_like(val_preds[0])
    for a, b in KFold(3, shuffle=True, random_state=SEED).split(Z_val):
        val_pred[b] = fit_predict(meta_model, Z_val[a], y_val_fit[a], Z_val[b])
`,
);

/** A time-series ensemble's validation predictions; a stacker's chain forward over the ordered holdout. */
export const forwardOutOfFold = outOfFold(
  "ensemble.forward_out_of_fold",
  ["blocks", "j", "a", "b", "KFold"],
  ["val_idx", "VALIDATION"],
  `    # Forward chaining over the time-ordered holdout: the stacker is applied to later periods than it was
    # fitted on, as on the test set (shuffled folds let it interpolate the trend inside the holdout).
    val_pred = np.mean(val_preds, axis=0)
    blocks = np.array_split(np.arange(len(val_idx)), 3) if VALIDATION == "time_holdout" else []
    for j in range(1, len(blocks)):
        a, b = np.concatenate(blocks[:j]), blocks[j]
        val_pred[b] = fit_predict(meta_model, Z_val[a], y_val_fit[a], Z_val[b])
    if VALIDATION != "time_holdout":
        from sklearn.model_selection import KFold
        for a, b in KFold(3, shuffle=True, random_state=SEED).split(Z_val):
            val_pred[b] = fit_predict(meta_model, Z_val[a], y_val_fit[a], Z_val[b])
`,
);
