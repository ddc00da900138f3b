import { fragment, type Fragment } from "./fragment.js";

/**
 * `GROUP_COL`: a categorical column whose test values never occur in training (speakers, patients, sites).
 * When there is one, i.i.d. validation holds out whole groups of it, as the test set does.
 */
export const unseenGroups = fragment(
  "validation.groups",
  { defines: ["unseen_group_column", "GROUP_COL"], uses: ["feature_columns", "train", "test"] },
  `def unseen_group_column(tr, te):
    """A categorical column whose test values never occur in training (speakers, patients, sites):
    validation then holds out whole groups, as the test set does."""
    for c in feature_columns(tr):
        if c in te.columns and tr[c].dtype == object:
            seen, unseen = set(tr[c].dropna().astype(str)), set(te[c].dropna().astype(str))
            if 2 <= len(seen) <= len(tr) / 3 and unseen and not (seen & unseen):
                return c
    return None

GROUP_COL = unseen_group_column(train, test)
if GROUP_COL is not None:
    print(f"validation holds out whole groups of {GROUP_COL!r} (the test set's values of it are all new)")
`,
);

/** The k-fold and holdout tail of `splits(n)`; `order` is the holdout's row order. */
const kfoldOrHoldout = (order: string) => `    if VALIDATION == "kfold":
        from sklearn.model_selection import KFold, StratifiedKFold
        if TASK_TYPE == "classification" and np.bincount(y).min() >= FOLDS:
            return list(StratifiedKFold(FOLDS, shuffle=True, random_state=SEED).split(idx, y))
        return list(KFold(FOLDS, shuffle=True, random_state=SEED).split(idx))
    order = ${order} if VALIDATION == "time_holdout" else rng.permutation(n)
    cut = int(round(n * (1 - HOLDOUT_FRAC)))
    return [(order[:cut], order[cut:])]
`;
const SPLIT_USES = ["np", "VALIDATION", "TASK_TYPE", "y", "FOLDS", "SEED", "rng", "HOLDOUT_FRAC"];

/** i.i.d. `splits(n)`, (train, validation) indices: whole groups of GROUP_COL, (stratified) k-fold, holdout. */
export const groupSplits = fragment(
  "validation.splits",
  { defines: ["splits"], uses: ["GROUP_COL", "train", ...SPLIT_USES] },
  `
def splits(n):
    idx = np.arange(n)
    if GROUP_COL is not None:
        groups = train[GROUP_COL].astype(str).values
        uniq = np.array(sorted(set(groups)))
        if VALIDATION == "kfold":
            from sklearn.model_selection import GroupKFold
            return list(GroupKFold(min(FOLDS, len(uniq))).split(idx, groups=groups))
        held = set(uniq[rng.permutation(len(uniq))[: max(1, int(round(len(uniq) * HOLDOUT_FRAC)))]])
        mask = np.array([g in held for g in groups])
        return [(idx[~mask], idx[mask])]
${kfoldOrHoldout("idx")}`,
);

/** Time-series `splits(n)`: the time-ordered holdout is the latest rows (by the features' time column). */
export const timeSplits = fragment(
  "validation.time_splits",
  { defines: ["splits", "time_order"], uses: [...SPLIT_USES, "train", "time_column", "pd"] },
  `
def splits(n):
    idx = np.arange(n)
${kfoldOrHoldout("time_order(train)")}
def time_order(df):
    tcol = time_column(df)
    t = pd.to_datetime(df[tcol], errors="coerce") if tcol else pd.Series(np.arange(len(df)))
    return np.argsort(t.values, kind="stable")
`,
);

export const folds = fragment(
  "validation.folds",
  { defines: ["folds"], uses: ["splits", "y"] },
  `folds = splits(len(y))
`,
);

/** i.i.d. `fold_data(a, b)`: the featurised rows of a fold, from the whole training table's features. */
export const iidFoldData = fragment(
  "validation.fold_data",
  { defines: ["fold_data"], uses: ["X_train", "y_fit", "off_train"] },
  `def fold_data(a, b):
    return X_train[a], y_fit[a], X_train[b], off_train[b]
`,
);

/** Time-series `fold_data(a, b)`: the holdout featurised like the test set, with its targets hidden. */
export const honestFoldData = fragment(
  "validation.honest_fold_data",
  {
    defines: ["fold_data"],
    uses: ["OFFSETS", "TRAIN_TARGET", "TARGET_COLUMNS", "train", "build_features", "y", "np", "TASK_TYPE"],
  },
  `def fold_data(a, b):
    """Honest time-series validation: the holdout is featurised like the test set, from the targets
    before it only (its own targets are unknown), so lags never read the period being predicted."""
    OFFSETS.clear()
    hidden = [c for c in dict.fromkeys([TRAIN_TARGET] + list(TARGET_COLUMNS)) if c in train.columns]
    X_a, X_b = build_features(train.iloc[a].reset_index(drop=True), train.iloc[b].drop(columns=hidden).reset_index(drop=True), y[a])
    o_a = OFFSETS.get("train", np.zeros(len(a))) if TASK_TYPE != "classification" else np.zeros(len(a))
    o_b = OFFSETS.get("test", np.zeros(len(b))) if TASK_TYPE != "classification" else np.zeros(len(b))
    return X_a, (y[a] - o_a if TASK_TYPE != "classification" else y[a]), X_b, o_b
`,
);

/** Each model's out-of-fold validation predictions (`val_preds`) and its score, printed. */
export const validateModels = fragment(
  "validation.models",
  {
    defines: ["fold_sets", "val_idx", "off_val", "y_val", "y_val_fit", "restore", "val_preds", "name", "make"],
    uses: ["fold_data", "folds", "np", "y", "TASK_TYPE", "MODELS", "fit_predict", "METRIC", "score", "time", "T0"],
  },
  `
fold_sets = [fold_data(a, b) for a, b in folds]
val_idx = np.concatenate([b for _, b in folds])
off_val = np.concatenate([f[3] for f in fold_sets])
y_val = y[val_idx]
y_val_fit = y_val - off_val if TASK_TYPE != "classification" else y_val
def restore(pred, offset):
    return pred if TASK_TYPE == "classification" else pred + offset
val_preds = []
for name, make in MODELS:
    val_preds.append(np.concatenate([fit_predict(make, X_a, y_a, X_b) for X_a, y_a, X_b, _ in fold_sets]))
    print(f"{name}: validation {METRIC} = {score(y_val, restore(val_preds[-1], off_val)):.5f} ({time.time() - T0:.1f}s)")
`,
);

export const finalScore = fragment(
  "validation.score",
  { defines: ["final_score"], uses: ["score", "y_val", "restore", "val_pred", "off_val"] },
  `final_score = score(y_val, restore(val_pred, off_val))
`,
);
