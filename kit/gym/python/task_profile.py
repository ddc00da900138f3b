"""Profile a package's public data: columns, kinds, row counts, target summary.

  task_profile.py <public dir> <options json>
options: {"train": "train.csv", "test": "test.csv", "sample": "sample_submission.csv",
          "id_column": null | name, "train_target": null | name}
Prints `OPENMLE_RESULT <json>`.
"""
import json
import os
import sys

import pandas as pd

IMAGE_EXT = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp"}
AUDIO_EXT = {".wav", ".mp3", ".flac", ".ogg", ".aif", ".aiff"}
TEXT_EXT = {".txt", ".md", ".json"}


def kind_of(s, name, id_col, target):
    if name == id_col:
        return "id"
    if name == target:
        return "target"
    if pd.api.types.is_numeric_dtype(s):
        return "numeric"
    v = s.dropna().astype(str)
    if len(v) == 0:
        return "categorical"
    ext = v.str.extract(r"(\.[A-Za-z0-9]{2,5})$")[0].str.lower()
    if ext.notna().mean() > 0.9 and ext.isin(IMAGE_EXT | AUDIO_EXT | TEXT_EXT).mean() > 0.9:
        return "path"
    if v.str.match(r"^\d{4}-\d{2}-\d{2}").mean() > 0.9:
        return "datetime"
    if v.str.len().mean() > 40 and v.nunique() > 0.5 * len(v):
        return "text"
    return "categorical"


def file_kinds(public):
    counts = {"image": 0, "audio": 0, "text": 0}
    for root, _, files in os.walk(public):
        for f in files:
            if f == "description.txt":
                continue
            e = os.path.splitext(f)[1].lower()
            if e in IMAGE_EXT:
                counts["image"] += 1
            elif e in AUDIO_EXT:
                counts["audio"] += 1
            elif e == ".txt":
                counts["text"] += 1
    return counts


def main(public, opts):
    sample = pd.read_csv(os.path.join(public, opts.get("sample") or "sample_submission.csv"), nrows=5)
    id_col = opts.get("id_column") or sample.columns[0]
    train_path = os.path.join(public, opts.get("train") or "train.csv")
    test_path = os.path.join(public, opts.get("test") or "test.csv")
    train = pd.read_csv(train_path) if os.path.isfile(train_path) else pd.DataFrame()
    test = pd.read_csv(test_path) if os.path.isfile(test_path) else pd.DataFrame()
    targets = [c for c in sample.columns if c != id_col]
    target = opts.get("train_target")
    if not target:
        if len(targets) == 1 and targets[0] in train.columns:
            target = targets[0]
        else:
            extra = [c for c in train.columns if c not in set(test.columns) and c != id_col]
            target = extra[0] if len(extra) == 1 else (targets[0] if targets else None)
    columns = []
    for c in train.columns:
        s = train[c]
        columns.append({"name": str(c), "kind": kind_of(s, c, id_col, target),
                        "missingShare": float(s.isna().mean()) if len(s) else 0.0, "unique": int(s.nunique())})
    tinfo = None
    if target is not None and target in train.columns:
        t = train[target].dropna()
        numeric = bool(pd.api.types.is_numeric_dtype(t))
        uniq = int(t.nunique())
        classes = None
        if uniq <= 50 and (not numeric or uniq <= 20 or (t == t.round()).all() and uniq <= 50):
            vals = sorted(t.unique().tolist(), key=lambda x: (str(type(x)), x))
            classes = [v.item() if hasattr(v, "item") else v for v in vals]
        tinfo = {"numeric": numeric, "unique": uniq, "classes": classes}
    return {
        "ok": True, "sampleColumns": [str(c) for c in sample.columns], "idColumn": str(id_col),
        "targetColumns": [str(c) for c in targets], "trainTarget": target,
        "trainColumns": [str(c) for c in train.columns], "testColumns": [str(c) for c in test.columns],
        "nTrain": int(len(train)), "nTest": int(len(test)), "columns": columns, "target": tinfo,
        "files": file_kinds(public),
    }


if __name__ == "__main__":
    try:
        out = main(sys.argv[1], json.loads(sys.argv[2]) if len(sys.argv) > 2 else {})
    except Exception as e:
        out = {"ok": False, "message": f"{type(e).__name__}: {e}"}
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(out, default=str) + "\n")
