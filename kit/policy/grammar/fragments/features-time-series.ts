import type { TimeSeriesFeatures } from "../spec.js";
import { fragment, type Fragment } from "./fragment.js";

/**
 * Time series: target lags and rolling means per series (rows ordered by the detected date column, series
 * told apart by the categorical columns), calendar features, exogenous lags, and optionally the target as
 * the change from a drift forecast (the forecast goes to OFFSETS, added back to the predictions).
 */
export function timeSeriesFeatures(f: TimeSeriesFeatures): Fragment[] {
  const uses = ["feature_columns", "pd", "np", ...(f.difference ? ["OFFSETS"] : [])];
  return [
    fragment(
      "features.time_series",
      { defines: ["LAGS", "WINDOWS", "time_column", "build_features"], uses },
      `LAGS = ${JSON.stringify(f.lags)}
WINDOWS = ${JSON.stringify(f.windows)}

def time_column(df):
    """The first column that parses as dates (by name first)."""
    cols = feature_columns(df)
    named = [c for c in cols if any(k in c.lower() for k in ("date", "time", "timestamp", "ds", "period"))]
    for c in named + [c for c in cols if c not in named and df[c].dtype == object]:
        parsed = pd.to_datetime(df[c], errors="coerce")
        if parsed.notna().mean() > 0.9:
            return c
    return None

def build_features(tr, te, y):
    """Time series: target lags ${f.lags.join("/")}, rolling means ${f.windows.join("/") || "none"}${f.calendar ? ", calendar features" : ""}${f.difference ? ", target as change from a drift forecast" : ""}${f.exogenousLags ? ", lags of other numeric columns" : ""}."""
    tcol = time_column(tr)
    full = pd.concat([tr.assign(_train=1), te.assign(_train=0)], ignore_index=True)
    full["_order"] = np.arange(len(full))
    full["_t"] = pd.to_datetime(full[tcol], errors="coerce") if tcol else full["_order"]
    groups = [c for c in feature_columns(tr) if c != tcol and tr[c].dtype == object]
    full["_y"] = np.concatenate([np.asarray(y, dtype=float), np.full(len(te), np.nan)])  # class codes or values
    full = full.sort_values(groups + ["_t", "_order"], kind="stable")
    target = full["_y"]
    keys = full[groups].astype(str).agg("|".join, axis=1) if groups else pd.Series(0, index=full.index)
    by = target.groupby(keys)
    X = pd.DataFrame(index=full.index)
    # Test rows have no target: lags/windows carry the last known value of their series forward.
    for k in LAGS:
        X[f"lag_{k}"] = by.shift(k).groupby(keys).ffill()
    for w in WINDOWS:
        X[f"roll_{w}"] = by.transform(lambda s: s.shift(1).rolling(w, min_periods=1).mean()).groupby(keys).ffill()
    num = [c for c in feature_columns(tr) if c != tcol and pd.api.types.is_numeric_dtype(tr[c])]
    for c in num:
        X[c] = pd.to_numeric(full[c], errors="coerce")
${
  f.exogenousLags
    ? `        X[f"{c}_lag1"] = X[c].groupby(keys).shift(1)
`
    : ""
}    for c in groups:
        X[c + "_code"] = full[c].astype("category").cat.codes
${
  f.calendar
    ? `    if tcol:
        t = full["_t"]
        X["year"], X["month"], X["day"], X["dow"] = t.dt.year, t.dt.month, t.dt.day, t.dt.dayofweek
        X["doy"], X["hour"], X["weekend"] = t.dt.dayofyear, t.dt.hour, (t.dt.dayofweek >= 5).astype(int)
        X["t_index"] = (t - t.min()).dt.total_seconds() / 86400.0
    else:
        X["t_index"] = full["_order"].astype(float)
`
    : ""
}${
        f.difference
          ? `    # The model predicts y minus a drift forecast from the series' last known value (added back to predictions):
    # last + drift x steps since it, drift = the series' mean one-step change over its known targets (a random
    # walk with drift), so a trend carries on over a forecast horizon instead of stopping at the last value.
    last = by.shift(1).groupby(keys).ffill()
    last = last.fillna(target.groupby(keys).transform("first")).fillna(np.nanmean(y))
    pos = pd.Series(np.arange(len(full), dtype=float), index=full.index)
    steps = (pos - pos.where(target.notna()).groupby(keys).shift(1).groupby(keys).ffill()).fillna(1.0)
    drift = target.groupby(keys).transform(lambda s: s.diff().mean()).fillna(0.0)
    X["_last"] = last + drift * steps
`
          : ""
      }    X = X.fillna(X.median(numeric_only=True)).fillna(0.0)
    X["_order"], X["_train"] = full["_order"], full["_train"]
    X = X.sort_values("_order")
${
  f.difference
    ? `    OFFSETS["train"], OFFSETS["test"] = X.loc[X._train == 1, "_last"].values, X.loc[X._train == 0, "_last"].values
`
    : ""
}    feats = [c for c in X.columns if c not in ("_order", "_train", "_last")]
    return X.loc[X._train == 1, feats].values.astype(np.float32), X.loc[X._train == 0, feats].values.astype(np.float32)
`,
    ),
  ];
}
