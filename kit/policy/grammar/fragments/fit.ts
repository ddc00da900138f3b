import { fragment } from "./fragment.js";

/**
 * The features of the whole training table and of the test table; `y_fit` is the target the models fit
 * (a regression target modelled as a difference has its OFFSETS taken off, and added back by `restore`).
 */
export const featurise = fragment(
  "fit.features",
  {
    defines: ["X_train", "X_test", "off_train", "off_test", "y_fit"],
    uses: ["build_features", "train", "test", "y", "OFFSETS", "np", "TASK_TYPE", "time", "T0"],
  },
  `
X_train, X_test = build_features(train, test, y)
off_train = OFFSETS.get("train", np.zeros(len(y))) if TASK_TYPE != "classification" else np.zeros(len(y))
off_test = OFFSETS.get("test", np.zeros(X_test.shape[0])) if TASK_TYPE != "classification" else np.zeros(X_test.shape[0])
y_fit = y - off_train if TASK_TYPE != "classification" else y
print(f"features: train {X_train.shape}, test {X_test.shape} ({time.time() - T0:.1f}s)")
`,
);

/** Every model refitted on all training rows, combined as in validation: the test predictions. */
export const refit = fragment(
  "fit.refit",
  {
    defines: ["test_pred"],
    uses: [
      "restore",
      "combine",
      "fit_predict",
      "X_train",
      "y_fit",
      "X_test",
      "MODELS",
      "Z_val",
      "y_val_fit",
      "off_test",
    ],
  },
  `test_pred = restore(combine([fit_predict(make, X_train, y_fit, X_test) for _, make in MODELS], ` +
    `Z_val, y_val_fit), off_test)
`,
);
