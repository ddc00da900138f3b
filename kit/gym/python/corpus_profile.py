"""Profile an exported corpus table (issue 27; the fields are documented in kit/gym/corpus/types.ts).

  corpus_profile.py <table.csv> <profile.json> <options json>
      options: {"kind": "table" | "ts", "fileColumn": name or null, "corrMaxColumns": int}
Types: numeric/integer by dtype; file: the file column; datetime: ISO dates (YYYY-MM-DD[THH:MM:SS]); text:
other strings averaging >= 5 words; categorical: the rest. Signatures are name-free (`n=150|num|sum=876.5`,
`cat|counts=50,50,50`) so the same data shipped twice under other names is found. Prints `OPENMLE_RESULT <json>`.
"""
import hashlib
import json
import sys

import numpy as np
import pandas as pd

ISO = r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?$"


def num(x):
    """A float as the shortest text that round-trips, with 10 significant digits (signature sums)."""
    return f"{float(f'{x:.10g}'):g}" if abs(x) < 1e15 else f"{x:.10g}"


def level_counts(values):
    """Level counts, largest first; runs of 4+ equal counts as `count*times` (an id column: `1*2284`); past 30
    entries, the number of levels and a hash of the whole list (the signature stays one short line)."""
    runs = []
    for c in sorted((int(v) for v in values), reverse=True):
        if runs and runs[-1][0] == c:
            runs[-1][1] += 1
        else:
            runs.append([c, 1])
    parts = []
    for c, k in runs:
        parts += [f"{c}*{k}"] if k >= 4 else [str(c)] * k
    if len(parts) <= 30:
        return ",".join(parts)
    return f"levels={len(values)}|sha1={hashlib.sha1(','.join(parts).encode()).hexdigest()[:12]}"


def column(df, name, file_column):
    v = df[name]
    present = v.dropna()
    n_missing = int(v.isna().sum())
    counts = present.value_counts(sort=False)
    top = float(counts.max() / len(present)) if len(present) else 0.0
    p = {"name": str(name), "nUnique": int(len(counts)), "nMissing": n_missing, "topShare": round(top, 4)}
    if name == file_column:
        return {**p, "type": "file"}, f"n={len(present)}|file"
    if pd.api.types.is_bool_dtype(v):
        v = present = present.astype(str)
    if pd.api.types.is_numeric_dtype(v):
        is_int = pd.api.types.is_integer_dtype(v) or (len(present) and bool(np.all(present == np.floor(present))))
        p["type"] = "integer" if is_int else "numeric"
        p["monotone"] = bool(n_missing == 0 and v.is_monotonic_increasing)
        return p, f"n={len(present)}|num|sum={num(float(present.sum()))}"
    s = present.astype(str)
    words = float(s.str.split().str.len().mean()) if len(s) else 0.0
    if len(s) and s.str.match(ISO).all():
        p["type"] = "datetime"
        p["monotone"] = bool(n_missing == 0 and s.is_monotonic_increasing)
    else:
        p["type"] = "text" if words >= 5 else "categorical"
        p["meanWords"] = round(words, 4)
    return p, f"cat|counts={level_counts(counts.values)}"


def profile(table, o):
    df = pd.read_csv(table, keep_default_na=False, na_values=[""], low_memory=False)
    cols, sigs = [], []
    for name in df.columns:
        p, sig = column(df, name, o.get("fileColumn"))
        cols.append(p)
        sigs.append(sig)
    numeric = [c["name"] for c in cols if c["type"] in ("numeric", "integer")]
    # Past corrMaxColumns numeric columns (wide spectra, pixel tables) no corr: n^2 pairs say little.
    if numeric and len(numeric) <= o.get("corrMaxColumns", 100):
        corr = df[numeric].astype(float).corr(method="pearson")
        for c in cols:
            if c["name"] in corr.columns:
                row = corr[c["name"]]
                c["corr"] = {k: round(float(row[k]), 4) for k in numeric if k != c["name"] and np.isfinite(row[k])}
    return {"nRows": int(len(df)), "kind": o.get("kind", "table"), "columns": cols, "signatures": sigs}


def write_result(make_profile, out_path):
    """Write make_profile() to out_path as JSON and print the OPENMLE_RESULT line: ok, or the error in one line
    (raw_profile.py shares it)."""
    try:
        res = make_profile()
        with open(out_path, "w") as f:
            json.dump(res, f, indent=1, sort_keys=True)
            f.write("\n")
        out = {"ok": True}
    except Exception as e:
        out = {"ok": False, "message": f"{type(e).__name__}: {e}"}
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(out) + "\n")


if __name__ == "__main__":
    write_result(lambda: profile(sys.argv[1], json.loads(sys.argv[3])), sys.argv[2])
