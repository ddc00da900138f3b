// The Python of the reference zoo's one sandbox program (reference-zoo.ts assembles it): the thread pins that come
// first, and the runner that follows the shared feature code (run-baselines.ts featureCode) and the zoo's settings.

/** First lines of the program: one BLAS/OpenMP thread (set before numpy loads), so every fit is reproducible. */
export const ZOO_THREADS = `# OpenMLE reference zoo: one process loads the data and builds the features once,
# then fits every entry.
import os
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_v] = "1"
`;

/**
 * The runner, after featureCode (META, train, test, y, sub, Xtr, Xte, texts) and `ZOO = json.loads(...)`:
 * 1. views: "dense" = the dense blocks (+ standardised grey pixels of image files named in path columns, + the
 *    standardised TruncatedSVD of the TF-IDF block), "all" = every block sparse (dense + full TF-IDF), "nb" = the
 *    TF-IDF block when there is one, else "dense", "none" = one zero column (the constant);
 * 2. the target: class labels encoded 0..K−1 (sorted) for every output but "value", floats for "value";
 * 3. each entry in a forked child (the parent keeps the features; a child past the entry cap is killed): fit,
 *    predict, shape as the metric's output (label, value, proba_binary, proba_multi, ranking), write
 *    submissions/<entry>.csv; zoo_status.json records every entry's status, message and seconds as it goes.
 * ENTRIES and the main loop (ZOO_MAIN) follow.
 */
export const ZOO_RUNNER = `import json, signal, sys, time, warnings
from sklearn.compose import TransformedTargetRegressor
from sklearn.decomposition import TruncatedSVD
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.ensemble import (AdaBoostClassifier, AdaBoostRegressor, ExtraTreesClassifier, ExtraTreesRegressor,
    GradientBoostingClassifier, GradientBoostingRegressor, HistGradientBoostingClassifier,
    HistGradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor)
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
warnings.filterwarnings("ignore")

SEED = ZOO["seed"]
OUT = ZOO["output"]
CLS = OUT != "value"
PROBA = OUT in ("proba_binary", "proba_multi", "ranking")
CONST = "median" if ZOO["metric"] in ("mae", "rmsle") else "mean"
T0 = META["targets"][0]


def xgboost():
    import xgboost as xgb
    return xgb


def scaled(model):
    return TransformedTargetRegressor(regressor=model, transformer=StandardScaler())


def label_str(v):
    """A class label as metric.py's _norm writes it: integral numbers without '.0'."""
    number = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
    if number and float(v).is_integer():
        return str(int(v))
    return str(v).strip()


# 1. views
_texts = globals().get("texts") or []
text_tr, text_te = (Xtr[-1], Xte[-1]) if _texts else (None, None)
dense_tr, dense_te = (list(Xtr[:-1]), list(Xte[:-1])) if _texts else (list(Xtr), list(Xte))
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff")


def pixel_matrix(paths):
    from PIL import Image
    side = ZOO["pixels"]
    out = np.zeros((len(paths), side * side))
    for i, p in enumerate(paths):
        with Image.open(os.path.join(data, str(p))) as im:
            grey = im.convert("L").resize((side, side), Image.BILINEAR)
            out[i] = np.asarray(grey, dtype=float).ravel() / 255.0
    return out


for col in ZOO["paths"]:
    is_image = col in train.columns and train[col].astype(str).str.lower().str.endswith(IMAGE_EXT).mean() > 0.5
    if is_image and col in test.columns:
        P_tr, P_te = pixel_matrix(train[col]), pixel_matrix(test[col])
        px = StandardScaler().fit(P_tr)
        dense_tr.append(sparse.csr_matrix(px.transform(P_tr)))
        dense_te.append(sparse.csr_matrix(px.transform(P_te)))
n_tr, n_te = len(train), len(test)
D_tr = sparse.hstack(dense_tr).toarray() if dense_tr else np.zeros((n_tr, 0))
D_te = sparse.hstack(dense_te).toarray() if dense_te else np.zeros((n_te, 0))
if text_tr is not None and text_tr.shape[1] > 1:
    svd = TruncatedSVD(n_components=min(ZOO["svd"], text_tr.shape[1] - 1), random_state=SEED).fit(text_tr)
    s_sc = StandardScaler().fit(svd.transform(text_tr))
    D_tr = np.hstack([D_tr, s_sc.transform(svd.transform(text_tr))])
    D_te = np.hstack([D_te, s_sc.transform(svd.transform(text_te))])
all_tr = dense_tr + ([text_tr] if text_tr is not None else [])
all_te = dense_te + ([text_te] if text_te is not None else [])
VIEWS = {
    "none": (np.zeros((n_tr, 1)), np.zeros((n_te, 1))),
    "dense": (D_tr, D_te),
    "all": (sparse.hstack(all_tr).tocsr(), sparse.hstack(all_te).tocsr()) if all_tr else (D_tr, D_te),
    "nb": (text_tr, text_te) if text_tr is not None else (D_tr, D_te),
}
HAS_TEXT = text_tr is not None
N_FEATURES = D_tr.shape[1]

# 2. the target
if CLS:
    _y = y if pd.api.types.is_numeric_dtype(y) else y.astype(str)
    CLASSES, y_fit = np.unique(_y.values, return_inverse=True)
    NAMES = [label_str(c) for c in CLASSES]
else:
    y_fit = y.astype(float).values
    CLASSES, NAMES = np.array([]), []
N_CLASS_TREES = len(CLASSES) if CLS and len(CLASSES) > 2 else 1
print(f"zoo data: {n_tr} train rows, {N_FEATURES} dense features, text: {HAS_TEXT}, classes: {len(CLASSES)}", flush=True)


def submission(model, X):
    """The fitted model's predictions on test, shaped as the metric's output."""
    out = sub.copy()
    if not CLS:
        out[T0] = np.asarray(model.predict(X), dtype=float).ravel()
        return out
    if not PROBA:
        out[T0] = CLASSES[np.asarray(model.predict(X)).astype(int)]
        return out
    P = np.asarray(model.predict_proba(X), dtype=float)
    full = np.zeros((P.shape[0], len(CLASSES)))
    full[:, np.asarray(model.classes_).astype(int)] = P
    if OUT == "proba_binary":
        out[T0] = full[:, NAMES.index("1")] if "1" in NAMES else 0.0
    elif OUT == "proba_multi":
        for c in META["targets"]:
            out[c] = full[:, NAMES.index(label_str(c))] if label_str(c) in NAMES else 0.0
    else:
        top = np.argsort(-full, axis=1, kind="mergesort")[:, : ZOO["k"]]
        out[T0] = [" ".join(NAMES[i] for i in row) for row in top]
    return out
`;

/**
 * The main loop, after `ENTRIES = [(name, view, make_classifier, make_regressor, rule), ...]`. An entry is
 * "skipped" when it has no model for the task type, when there are no features (all but the constant), or by its
 * rule (kernel: more train rows than ZOO["max_kernel_rows"]; boost: rows × features × class trees past
 * ZOO["max_boost_work"]), all decided from the data's shape alone, so the same package skips the same entries.
 */
export const ZOO_MAIN = `

def rule_skip(rule):
    if rule == "kernel" and n_tr > ZOO["max_kernel_rows"]:
        return f"{n_tr} train rows > {ZOO['max_kernel_rows']} (kernel entries)"
    work = n_tr * max(N_FEATURES, 1) * N_CLASS_TREES
    if rule == "boost" and work > ZOO["max_boost_work"]:
        return f"rows x features x class trees = {work} > {ZOO['max_boost_work']} (boosting entries)"
    return None


def fit_write(name, view, make):
    Xa, Xb = VIEWS[view]
    model = make()
    model.fit(Xa, y_fit)
    submission(model, Xb).to_csv(os.path.join("submissions", name + ".csv"), index=False)


def run_entry(name, view, make):
    """Fit one entry in a forked child, killed past the entry cap; its status as a dict."""
    r, w = os.pipe()
    t0 = time.time()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            fit_write(name, view, make)
            msg = {"ok": True}
        except BaseException as e:
            msg = {"ok": False, "message": f"{type(e).__name__}: {e}"[:400]}
        os.write(w, json.dumps(msg).encode())
        os._exit(0)
    os.close(w)
    killed, st = False, 0
    while True:
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.time() - t0 > ZOO["entry_timeout_s"]:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            killed = True
            break
        time.sleep(0.02)
    raw = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        raw += chunk
    os.close(r)
    seconds = round(time.time() - t0, 3)
    if killed:
        res = {"status": "timeout", "message": f"past the entry cap of {ZOO['entry_timeout_s']} s"}
    else:
        msg = json.loads(raw) if raw else {"ok": False, "message": f"the entry's process died (wait status {st})"}
        res = {"status": "ok"} if msg["ok"] else {"status": "error", "message": msg["message"]}
    if res["status"] != "ok" and os.path.exists(os.path.join("submissions", name + ".csv")):
        os.remove(os.path.join("submissions", name + ".csv"))
    return {"name": name, **res, "seconds": seconds}


os.makedirs("submissions", exist_ok=True)
STATUS = []


def save_status():
    with open("zoo_status.json.tmp", "w") as f:
        json.dump({"version": ZOO["version"], "entries": STATUS}, f)
    os.replace("zoo_status.json.tmp", "zoo_status.json")


for name, view, make_c, make_r, rule in ENTRIES:
    make = make_c if CLS else make_r
    why = None
    if make is None:
        why = "no model of this entry for the task type"
    elif view != "none" and N_FEATURES == 0 and not HAS_TEXT:
        why = "no usable feature columns"
    else:
        why = rule_skip(rule)
    res = {"name": name, "status": "skipped", "message": why, "seconds": 0.0} if why else run_entry(name, view, make)
    STATUS.append(res)
    save_status()
    print(f"zoo {name}: {res['status']} {res['seconds']} s", flush=True)
first = next((e["name"] for e in STATUS if e["status"] == "ok"), None)
if first is not None:
    import shutil
    shutil.copyfile(os.path.join("submissions", first + ".csv"), "submission.csv")
`;
