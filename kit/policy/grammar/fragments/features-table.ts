import type { TabularFeatures, TextFeatures } from "../spec.js";
import { fragment, pyBool as py, type Fragment } from "./fragment.js";

/** `numeric_block(tr, te, cols)`: the numeric columns imputed, optionally with missing-value indicators. */
export function numericBlock(impute: TabularFeatures["numericImpute"], indicators: boolean): Fragment {
  return fragment(
    "features.numeric_block",
    { defines: ["numeric_block"], uses: ["pd"] },
    `
def numeric_block(tr, te, cols):
    """Impute numeric columns (${impute})${indicators ? " and add missing-value indicators" : ""}."""
    A = tr[cols].apply(pd.to_numeric, errors="coerce").astype(float)
    B = te.reindex(columns=cols).apply(pd.to_numeric, errors="coerce").astype(float)
    fill = ${impute === "median" ? "A.median()" : impute === "mean" ? "A.mean()" : "pd.Series(0.0, index=cols)"}
    fill = fill.fillna(0.0)
    parts_a, parts_b = [A.fillna(fill)], [B.fillna(fill)]
${
  indicators
    ? `    holes = [c for c in cols if A[c].isna().any()]
    if holes:
        parts_a.append(A[holes].isna().astype(float).add_suffix("_missing"))
        parts_b.append(B[holes].isna().astype(float).add_suffix("_missing"))
`
    : ""
}    return pd.concat(parts_a, axis=1), pd.concat(parts_b, axis=1)
`,
  );
}

/** Tables: imputed numeric columns, encoded categoricals, optional pairwise interactions and scaling. */
export function tabularFeatures(f: TabularFeatures): Fragment[] {
  const cat =
    f.categorical === "onehot"
      ? `
    for c in cat_cols:
        top = tr[c].astype(str).value_counts().index[:${f.maxCategories}]
        for v in top:
            A_parts.append((tr[c].astype(str) == v).astype(float).rename(f"{c}={v}"))
            B_parts.append((te[c].astype(str) == v).astype(float).rename(f"{c}={v}"))`
      : f.categorical === "ordinal"
        ? `
    for c in cat_cols:
        order = {v: i for i, v in enumerate(tr[c].astype(str).value_counts().index)}
        A_parts.append(tr[c].astype(str).map(order).fillna(-1).astype(float).rename(c))
        B_parts.append(te[c].astype(str).map(order).fillna(-1).astype(float).rename(c))`
        : `
    # Target encoding: smoothed class/target means, out-of-fold on train so rows never see their own label.
    Y = np.eye(N_CLASSES)[y][:, 1:] if TASK_TYPE == "classification" else y.reshape(-1, 1).astype(float)
    prior, smooth = Y.mean(axis=0), 20.0
    folds = np.arange(len(tr)) % 5
    rng.shuffle(folds)
    for c in cat_cols:
        keys_tr, keys_te = tr[c].astype(str).values, te[c].astype(str).values
        enc_tr = np.zeros((len(tr), Y.shape[1]))
        def means(keys, Yk):
            frame = pd.DataFrame(Yk).groupby(keys)
            return (frame.sum() + smooth * prior) / (frame.count() + smooth)
        for k in range(5):
            m = means(keys_tr[folds != k], Y[folds != k])
            enc_tr[folds == k] = m.reindex(keys_tr[folds == k]).fillna(pd.Series(prior)).values
        enc_te = means(keys_tr, Y).reindex(keys_te).values
        enc_te = np.where(np.isnan(enc_te), prior, enc_te)
        for j in range(Y.shape[1]):
            A_parts.append(pd.Series(enc_tr[:, j], index=tr.index, name=f"{c}_te{j}"))
            B_parts.append(pd.Series(enc_te[:, j], index=te.index, name=f"{c}_te{j}"))`;
  const inter =
    f.interactions === "none"
      ? ""
      : `
    # Pairwise ${f.interactions} of the (up to) 5 most variable numeric columns.
    top = list(A_num[num_cols].var().sort_values(ascending=False).index[:5]) if num_cols else []
    for i, a in enumerate(top):
        for b in top[i + 1:]:
            for P, Q in ((A_parts, A_num), (B_parts, B_num)):
                ${f.interactions === "products" ? `P.append((Q[a] * Q[b]).rename(f"{a}*{b}"))` : `P.append((Q[a] / (Q[b].abs() + 1e-6)).rename(f"{a}/{b}"))`}`;
  const scale =
    f.scale === "none"
      ? ""
      : f.scale === "standard"
        ? `
    from sklearn.preprocessing import StandardScaler
    scaler = StandardScaler().fit(X_tr)
    X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)`
        : `
    from sklearn.preprocessing import QuantileTransformer
    scaler = QuantileTransformer(n_quantiles=min(200, len(X_tr)), output_distribution="normal", random_state=SEED).fit(X_tr)
    X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)`;
  const uses = [
    "feature_columns",
    "pd",
    "numeric_block",
    "np",
    ...(f.categorical === "target" ? ["N_CLASSES", "TASK_TYPE", "rng"] : []),
    ...(f.scale === "quantile" ? ["SEED"] : []),
  ];
  return [
    numericBlock(f.numericImpute, f.missingIndicators),
    fragment(
      "features.tabular",
      { defines: ["build_features"], uses },
      `
def build_features(tr, te, y):
    """Tables: numeric imputation, ${f.categorical} categorical encoding, interactions: ${f.interactions}, scaling: ${f.scale}."""
    cols = feature_columns(tr)
    num_cols = [c for c in cols if pd.api.types.is_numeric_dtype(tr[c])]
    cat_cols = [c for c in cols if c not in num_cols]
    A_num, B_num = numeric_block(tr, te, num_cols)
    A_parts, B_parts = [A_num], [B_num]
${cat}
${inter}
    X_tr = pd.concat(A_parts, axis=1).values.astype(np.float32)
    X_te = pd.concat(B_parts, axis=1).values.astype(np.float32)
${scale}
    return X_tr, X_te
`,
    ),
  ];
}

/** Text: word and/or character TF-IDF of the text columns, optionally with the numeric columns. */
export function textFeatures(f: TextFeatures): Fragment[] {
  const word = f.word
    ? `
    blocks.append(TfidfVectorizer(ngram_range=(1, ${f.word.ngramMax}), max_features=${f.word.maxFeatures}, sublinear_tf=${py(f.word.sublinearTf)}, min_df=${f.word.minDf}))`
    : "";
  const char = f.char
    ? `
    blocks.append(TfidfVectorizer(analyzer="char_wb", ngram_range=(${f.char.ngramMin}, ${f.char.ngramMax}), max_features=${f.char.maxFeatures}, sublinear_tf=True, min_df=2))`
    : "";
  const extra = f.extraColumns
    ? `
    other = [c for c in feature_columns(tr) if c not in text_cols and pd.api.types.is_numeric_dtype(tr[c])]
    if other:
        from sklearn.preprocessing import StandardScaler
        A, B = numeric_block(tr, te, other)
        sc = StandardScaler().fit(A.values)
        mats_tr.append(sparse.csr_matrix(sc.transform(A.values)))
        mats_te.append(sparse.csr_matrix(sc.transform(B.values)))`
    : "";
  const uses = ["feature_columns", "np", ...(f.extraColumns ? ["pd", "numeric_block"] : [])];
  return [
    ...(f.extraColumns ? [numericBlock("median", false)] : []),
    fragment(
      "features.text",
      { defines: ["text_columns", "build_features"], uses },
      `
def text_columns(tr):
    """Object columns whose values are long strings (free text)."""
    cols = [c for c in feature_columns(tr) if tr[c].dtype == object]
    longest = sorted(cols, key=lambda c: -tr[c].astype(str).str.len().mean())
    return [c for c in longest if tr[c].astype(str).str.len().mean() > 15] or longest[:1]

def build_features(tr, te, y):
    """Text: ${[f.word ? `word TF-IDF 1-${f.word.ngramMax}-grams` : "", f.char ? `char TF-IDF ${f.char.ngramMin}-${f.char.ngramMax}-grams` : ""].filter(Boolean).join(" + ")}${f.extraColumns ? " + numeric columns" : ""}."""
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfVectorizer
    text_cols = text_columns(tr)
    # Long documents are cut to their first 3,000 characters to bound the n-gram cost.
    doc_tr = tr[text_cols].fillna("").astype(str).agg(" ".join, axis=1).str.slice(0, 3000)
    doc_te = te.reindex(columns=text_cols).fillna("").astype(str).agg(" ".join, axis=1).str.slice(0, 3000)
    blocks = []${word}${char}
    if not blocks:
        blocks.append(TfidfVectorizer(max_features=20000))
    mats_tr = [v.fit_transform(doc_tr) for v in blocks]
    mats_te = [v.transform(doc_te) for v in blocks]${extra}
    return sparse.hstack(mats_tr).tocsr().astype(np.float32), sparse.hstack(mats_te).tocsr().astype(np.float32)
`,
    ),
  ];
}
