import type { ImageFeatures } from "../spec.js";
import { fragment, type Fragment } from "./fragment.js";

/** `image_vector(img)` per method: the features of one image resized to SIDE x SIDE. */
const IMAGE_VECTOR: Record<ImageFeatures["method"], string> = {
  pixels: `
def image_vector(img):
    return np.asarray(img.convert("L").resize((SIDE, SIDE)), dtype=np.float32).ravel() / 255.0
`,
  stats: `
def image_vector(img):
    rgb = np.asarray(img.convert("RGB").resize((SIDE, SIDE)), dtype=np.float32) / 255.0
    grey = rgb.mean(axis=2)
    feats = [rgb.mean(axis=(0, 1)), rgb.std(axis=(0, 1)), np.percentile(rgb.reshape(-1, 3), [10, 50, 90], axis=0).ravel()]
    feats.append(np.histogram(grey, bins=16, range=(0, 1))[0] / grey.size)
    small = max(SIDE // 4, 4)
    feats.append(np.asarray(img.convert("L").resize((small, small)), dtype=np.float32).ravel() / 255.0)
    return np.concatenate(feats)
`,
  hog: `
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
`,
};

/**
 * Images from a path column, train/ and test/ folders by id, or pixel columns of the table: grey pixels,
 * colour statistics, or gradient-orientation histograms, optionally standardised.
 */
export function imageFeatures(f: ImageFeatures): Fragment[] {
  const describe =
    f.method === "pixels"
      ? `grey pixels at ${f.side}x${f.side}`
      : f.method === "stats"
        ? `colour statistics, grey histogram and ${f.side}x${f.side}/4 thumbnails`
        : `HOG-like gradient histograms on ${f.side}x${f.side} grey images`;
  const uses = ["feature_columns", "os", "DATA_DIR", "ID_COL", "IMAGE_EXT", "pd", "np", "image_vector"];
  return [
    fragment(
      "features.image.settings",
      { defines: ["SIDE", "IMAGE_EXT"] },
      `SIDE = ${f.side}
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp")
`,
    ),
    fragment(`features.image.${f.method}`, { defines: ["image_vector"], uses: ["np", "SIDE"] }, IMAGE_VECTOR[f.method]),
    fragment(
      "features.image",
      { defines: ["image_sources", "pixel_rows_to_images", "image_matrix", "build_features"], uses },
      `
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
${
  f.scale === "standard"
    ? `    mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0) + 1e-6
    X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd
`
    : ""
}    return X_tr, X_te
`,
    ),
  ];
}
