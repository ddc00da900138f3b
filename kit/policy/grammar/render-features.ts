import type { AudioFeatures, FeatureSpec, ImageFeatures, TabularFeatures, TextFeatures, TimeSeriesFeatures } from "./spec.js";

/** Python for `build_features(train, test, y) -> (X_train, X_test)`, one block per modality. */
export function renderFeatures(f: FeatureSpec): string {
  switch (f.kind) {
    case "tabular": return tabular(f);
    case "text": return text(f);
    case "image": return image(f);
    case "time_series": return timeSeries(f);
    case "audio": return audio(f);
  }
}

const py = (b: boolean) => (b ? "True" : "False");

const NUMERIC_BLOCK = (impute: string, indicators: boolean) => `
def numeric_block(tr, te, cols):
    """Impute numeric columns (${impute})${indicators ? " and add missing-value indicators" : ""}."""
    A = tr[cols].apply(pd.to_numeric, errors="coerce").astype(float)
    B = te.reindex(columns=cols).apply(pd.to_numeric, errors="coerce").astype(float)
    fill = ${impute === "median" ? "A.median()" : impute === "mean" ? "A.mean()" : "pd.Series(0.0, index=cols)"}
    fill = fill.fillna(0.0)
    parts_a, parts_b = [A.fillna(fill)], [B.fillna(fill)]
${indicators ? `    holes = [c for c in cols if A[c].isna().any()]
    if holes:
        parts_a.append(A[holes].isna().astype(float).add_suffix("_missing"))
        parts_b.append(B[holes].isna().astype(float).add_suffix("_missing"))
` : ""}    return pd.concat(parts_a, axis=1), pd.concat(parts_b, axis=1)
`;

function tabular(f: TabularFeatures): string {
  const cat = f.categorical === "onehot" ? `
    for c in cat_cols:
        top = tr[c].astype(str).value_counts().index[:${f.maxCategories}]
        for v in top:
            A_parts.append((tr[c].astype(str) == v).astype(float).rename(f"{c}={v}"))
            B_parts.append((te[c].astype(str) == v).astype(float).rename(f"{c}={v}"))` : f.categorical === "ordinal" ? `
    for c in cat_cols:
        order = {v: i for i, v in enumerate(tr[c].astype(str).value_counts().index)}
        A_parts.append(tr[c].astype(str).map(order).fillna(-1).astype(float).rename(c))
        B_parts.append(te[c].astype(str).map(order).fillna(-1).astype(float).rename(c))` : `
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
  const inter = f.interactions === "none" ? "" : `
    # Pairwise ${f.interactions} of the (up to) 5 most variable numeric columns.
    top = list(A_num[num_cols].var().sort_values(ascending=False).index[:5]) if num_cols else []
    for i, a in enumerate(top):
        for b in top[i + 1:]:
            for P, Q in ((A_parts, A_num), (B_parts, B_num)):
                ${f.interactions === "products" ? `P.append((Q[a] * Q[b]).rename(f"{a}*{b}"))` : `P.append((Q[a] / (Q[b].abs() + 1e-6)).rename(f"{a}/{b}"))`}`;
  const scale = f.scale === "none" ? "" : f.scale === "standard" ? `
    from sklearn.preprocessing import StandardScaler
    scaler = StandardScaler().fit(X_tr)
    X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)` : `
    from sklearn.preprocessing import QuantileTransformer
    scaler = QuantileTransformer(n_quantiles=min(200, len(X_tr)), output_distribution="normal", random_state=SEED).fit(X_tr)
    X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)`;
  return `${NUMERIC_BLOCK(f.numericImpute, f.missingIndicators)}
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
`;
}

function text(f: TextFeatures): string {
  const word = f.word ? `
    blocks.append(TfidfVectorizer(ngram_range=(1, ${f.word.ngramMax}), max_features=${f.word.maxFeatures}, sublinear_tf=${py(f.word.sublinearTf)}, min_df=${f.word.minDf}))` : "";
  const char = f.char ? `
    blocks.append(TfidfVectorizer(analyzer="char_wb", ngram_range=(${f.char.ngramMin}, ${f.char.ngramMax}), max_features=${f.char.maxFeatures}, sublinear_tf=True, min_df=2))` : "";
  const extra = f.extraColumns ? `
    other = [c for c in feature_columns(tr) if c not in text_cols and pd.api.types.is_numeric_dtype(tr[c])]
    if other:
        from sklearn.preprocessing import StandardScaler
        A, B = numeric_block(tr, te, other)
        sc = StandardScaler().fit(A.values)
        mats_tr.append(sparse.csr_matrix(sc.transform(A.values)))
        mats_te.append(sparse.csr_matrix(sc.transform(B.values)))` : "";
  return `${f.extraColumns ? NUMERIC_BLOCK("median", false) : ""}
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
`;
}

function image(f: ImageFeatures): string {
  const describe = f.method === "pixels" ? `grey pixels at ${f.side}x${f.side}` : f.method === "stats" ? `colour statistics, grey histogram and ${f.side}x${f.side}/4 thumbnails` : `HOG-like gradient histograms on ${f.side}x${f.side} grey images`;
  const extract = f.method === "pixels" ? `
def image_vector(img):
    return np.asarray(img.convert("L").resize((SIDE, SIDE)), dtype=np.float32).ravel() / 255.0
` : f.method === "stats" ? `
def image_vector(img):
    rgb = np.asarray(img.convert("RGB").resize((SIDE, SIDE)), dtype=np.float32) / 255.0
    grey = rgb.mean(axis=2)
    feats = [rgb.mean(axis=(0, 1)), rgb.std(axis=(0, 1)), np.percentile(rgb.reshape(-1, 3), [10, 50, 90], axis=0).ravel()]
    feats.append(np.histogram(grey, bins=16, range=(0, 1))[0] / grey.size)
    small = max(SIDE // 4, 4)
    feats.append(np.asarray(img.convert("L").resize((small, small)), dtype=np.float32).ravel() / 255.0)
    return np.concatenate(feats)
` : `
def image_vector(img, cell=4, bins=9):
    """Histograms of gradient orientation per cell (HOG-like, numpy only), plus the cell mean intensity."""
    g = np.asarray(img.convert("L").resize((SIDE, SIDE)), dtype=np.float32) / 255.0
    gy, gx = np.gradient(g)
    mag, ang = np.hypot(gx, gy), np.mod(np.arctan2(gy, gx), np.pi)
    idx = np.minimum((ang / np.pi * bins).astype(int), bins - 1)
    step = SIDE // cell
    feats = []
    for i in range(cell):
        for j in range(cell):
            sl = (slice(i * step, (i + 1) * step), slice(j * step, (j + 1) * step))
            h = np.bincount(idx[sl].ravel(), weights=mag[sl].ravel(), minlength=bins)
            feats.append(h / (np.linalg.norm(h) + 1e-6))
            feats.append([g[sl].mean()])
    return np.concatenate(feats)
`;
  return `SIDE = ${f.side}
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp")
${extract}
def image_sources(df, split):
    """Per row: an image file path, or None when the pixels are columns of the table."""
    cols = feature_columns(df)
    for c in cols:
        vals = df[c].astype(str)
        if df[c].dtype == object and vals.str.lower().str.endswith(IMAGE_EXT).mean() > 0.5:
            return [p if os.path.exists(p) else os.path.join(DATA_DIR, split, p) for p in (os.path.join(DATA_DIR, v) for v in vals)]
    folder = os.path.join(DATA_DIR, split)
    if os.path.isdir(folder) and ID_COL in df.columns:
        by_stem = {os.path.splitext(n)[0]: os.path.join(folder, n) for n in os.listdir(folder)}
        found = [by_stem.get(str(i)) or (os.path.join(folder, str(i)) if os.path.exists(os.path.join(folder, str(i))) else None) for i in df[ID_COL]]
        if all(p is not None for p in found):
            return found
    return None

def pixel_rows_to_images(df):
    from PIL import Image
    cols = [c for c in feature_columns(df) if pd.api.types.is_numeric_dtype(df[c])]
    P = df[cols].fillna(0).values.astype(np.float32)
    side = int(round(np.sqrt(P.shape[1])))
    channels = 1 if side * side == P.shape[1] else 3
    if channels == 3:
        side = int(round(np.sqrt(P.shape[1] / 3)))
    scale = 255.0 / max(P.max(), 1.0)
    shape = (side, side) if channels == 1 else (side, side, 3)
    return [Image.fromarray(np.clip(r[: side * side * channels] * scale, 0, 255).astype(np.uint8).reshape(shape)) for r in P]

def image_matrix(df, split):
    from PIL import Image
    paths = image_sources(df, split)
    if paths is None:
        return np.stack([image_vector(im) for im in pixel_rows_to_images(df)])
    rows = []
    for p in paths:
        with Image.open(p) as im:
            rows.append(image_vector(im))
    return np.stack(rows)

def build_features(tr, te, y):
    """Images: ${describe}${f.scale === "standard" ? ", standardised" : ""}."""
    X_tr, X_te = image_matrix(tr, "train").astype(np.float32), image_matrix(te, "test").astype(np.float32)
${f.scale === "standard" ? `    mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0) + 1e-6
    X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd
` : ""}    return X_tr, X_te
`;
}

function timeSeries(f: TimeSeriesFeatures): string {
  return `LAGS = ${JSON.stringify(f.lags)}
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
${f.exogenousLags ? `        X[f"{c}_lag1"] = X[c].groupby(keys).shift(1)
` : ""}    for c in groups:
        X[c + "_code"] = full[c].astype("category").cat.codes
${f.calendar ? `    if tcol:
        t = full["_t"]
        X["year"], X["month"], X["day"], X["dow"] = t.dt.year, t.dt.month, t.dt.day, t.dt.dayofweek
        X["doy"], X["hour"], X["weekend"] = t.dt.dayofyear, t.dt.hour, (t.dt.dayofweek >= 5).astype(int)
        X["t_index"] = (t - t.min()).dt.total_seconds() / 86400.0
    else:
        X["t_index"] = full["_order"].astype(float)
` : ""}${f.difference ? `    # The model predicts y minus a drift forecast from the series' last known value (added back to predictions):
    # last + drift x steps since it, drift = the series' mean one-step change over its known targets (a random
    # walk with drift), so a trend carries on over a forecast horizon instead of stopping at the last value.
    last = by.shift(1).groupby(keys).ffill()
    last = last.fillna(target.groupby(keys).transform("first")).fillna(np.nanmean(y))
    pos = pd.Series(np.arange(len(full), dtype=float), index=full.index)
    steps = (pos - pos.where(target.notna()).groupby(keys).shift(1).groupby(keys).ffill()).fillna(1.0)
    drift = target.groupby(keys).transform(lambda s: s.diff().mean()).fillna(0.0)
    X["_last"] = last + drift * steps
` : ""}    X = X.fillna(X.median(numeric_only=True)).fillna(0.0)
    X["_order"], X["_train"] = full["_order"], full["_train"]
    X = X.sort_values("_order")
${f.difference ? `    OFFSETS["train"], OFFSETS["test"] = X.loc[X._train == 1, "_last"].values, X.loc[X._train == 0, "_last"].values
` : ""}    feats = [c for c in X.columns if c not in ("_order", "_train", "_last")]
    return X.loc[X._train == 1, feats].values.astype(np.float32), X.loc[X._train == 0, feats].values.astype(np.float32)
`;
}

function audio(f: AudioFeatures): string {
  const frame = f.method === "mfcc" ? `
    return dct(log_mel(S, sr, freqs), type=2, axis=0, norm="ortho")[:N_CEPS]
` : f.method === "logmel" ? `
    return log_mel(S, sr, freqs)
` : `
    P = S + 1e-12
    total = P.sum(axis=0)
    centroid = (freqs[:, None] * P).sum(axis=0) / total
    bandwidth = np.sqrt((((freqs[:, None] - centroid) ** 2) * P).sum(axis=0) / total)
    rolloff = freqs[np.minimum((np.cumsum(P, axis=0) < 0.85 * total).sum(axis=0), len(freqs) - 1)]
    flatness = np.exp(np.log(P).mean(axis=0)) / P.mean(axis=0)
    bands = np.stack([b.sum(axis=0) for b in np.array_split(P, 8, axis=0)])
    return np.vstack([centroid / 1000.0, bandwidth / 1000.0, rolloff / 1000.0, flatness, np.log(total), np.log(bands)])
`;
  const what = f.method === "mfcc" ? `MFCCs (${f.nMels} mel bands)` : f.method === "logmel" ? `log-mel energies (${f.nMels} bands)` : "spectral shape and 8 band energies";
  return `N_MELS, FRAME_MS, SEGMENTS, N_CEPS = ${f.nMels}, ${f.frameMs}, ${f.segments}, 13
AUDIO_EXT = (".wav", ".flac", ".ogg", ".mp3", ".aiff", ".aif")
FILTERBANKS = {}

def read_audio(path):
    """Mono float samples in [-1, 1] and the sample rate (WAV via scipy; other formats via soundfile)."""
    if path.lower().endswith(".wav"):
        from scipy.io import wavfile
        sr, x = wavfile.read(path)
        x = x.astype(np.float64) / (np.iinfo(x.dtype).max if np.issubdtype(x.dtype, np.integer) else 1.0)
    else:
        import soundfile
        x, sr = soundfile.read(path, dtype="float64")
    if x.ndim > 1:
        x = x.mean(axis=1)
    return x / (np.abs(x).max() + 1e-9), sr

def mel_filterbank(sr, freqs):
    """Triangular filters evenly spaced on the mel scale from 20 Hz to min(sr/2, 8 kHz)."""
    key = (sr, len(freqs))
    if key not in FILTERBANKS:
        mel = lambda hz: 2595.0 * np.log10(1.0 + hz / 700.0)
        hz = lambda m: 700.0 * (10 ** (m / 2595.0) - 1.0)
        edges = hz(np.linspace(mel(20.0), mel(min(sr / 2.0, 8000.0)), N_MELS + 2))
        fb = np.zeros((N_MELS, len(freqs)))
        for i in range(N_MELS):
            lo, mid, hi = edges[i], edges[i + 1], edges[i + 2]
            fb[i] = np.clip(np.minimum((freqs - lo) / (mid - lo), (hi - freqs) / (hi - mid)), 0, None)
        FILTERBANKS[key] = fb
    return FILTERBANKS[key]

def log_mel(S, sr, freqs):
    return np.log(mel_filterbank(sr, freqs) @ S + 1e-10)

def frame_features(x, sr):
    """Per-frame features (rows) of a power spectrogram with ${f.frameMs} ms hann frames, half-frame hop."""
    from scipy import signal
    from scipy.fft import dct
    nper = max(16, int(sr * FRAME_MS / 1000))
    if len(x) < nper:
        x = np.pad(x, (0, nper - len(x)))
    freqs, _, S = signal.spectrogram(x, fs=sr, window="hann", nperseg=nper, noverlap=nper // 2, mode="psd")
${frame}
def audio_vector(path):
    """Pooled over time: mean and std of each frame feature${f.segments ? `, means over ${f.segments} equal segments` : ""}${f.deltas ? ", mean and std of the deltas" : ""}."""
    F = frame_features(*read_audio(path))
    parts = [F.mean(axis=1), F.std(axis=1)]
    if SEGMENTS:
        parts += [F[:, s].mean(axis=1) if len(s) else F.mean(axis=1) for s in np.array_split(np.arange(F.shape[1]), SEGMENTS)]
${f.deltas ? `    D = np.diff(F, axis=1) if F.shape[1] > 1 else np.zeros_like(F)
    parts += [D.mean(axis=1), D.std(axis=1)]
` : ""}    return np.concatenate(parts)

def audio_paths(df, split):
    """Per row: the audio file's path (a column naming audio files, else <split>/<id>.*)."""
    for c in feature_columns(df):
        vals = df[c].astype(str)
        if df[c].dtype == object and vals.str.lower().str.endswith(AUDIO_EXT).mean() > 0.5:
            return [p if os.path.exists(p) else os.path.join(DATA_DIR, split, v) for p, v in zip((os.path.join(DATA_DIR, v) for v in vals), vals)]
    folder = os.path.join(DATA_DIR, split)
    by_stem = {os.path.splitext(n)[0]: os.path.join(folder, n) for n in os.listdir(folder)} if os.path.isdir(folder) else {}
    return [by_stem[str(i)] for i in df[ID_COL]]

def build_features(tr, te, y):
    """Audio: ${what} per ${f.frameMs} ms frame, pooled over time${f.scale === "standard" ? ", standardised" : ""}."""
    X_tr = np.stack([audio_vector(p) for p in audio_paths(tr, "train")]).astype(np.float32)
    X_te = np.stack([audio_vector(p) for p in audio_paths(te, "test")]).astype(np.float32)
    X_tr, X_te = np.nan_to_num(X_tr), np.nan_to_num(X_te)
${f.scale === "standard" ? `    mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0) + 1e-6
    X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd
` : ""}    return X_tr, X_te
`;
}
