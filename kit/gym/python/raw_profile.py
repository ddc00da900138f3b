"""Profile a user's raw table for the framing rules (`openmle task build --table`): the corpus profile
(corpus_profile.py, fields in kit/gym/corpus/types.ts) of a CSV, JSON (array of records) or JSONL table.

  raw_profile.py <table> <out dir> <options json>
      options: {"fileColumn": name or null, "corrMaxColumns": int}
A JSON or JSONL table is read as prepare.py reads it and written to <out dir>/table.csv first. Writes
<out dir>/profile.json; prints `OPENMLE_RESULT <json>`.
"""
import json
import sys
from pathlib import Path

import pandas as pd

from corpus_profile import profile

if __name__ == "__main__":
    try:
        table, out, opts = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
        if table.suffix.lower() in (".json", ".jsonl"):
            df = pd.read_json(table, lines=table.suffix.lower() == ".jsonl")
            csv = out / "table.csv"
            df.to_csv(csv, index=False)
            table = csv
        res = profile(str(table), {"kind": "table", **opts})
        with open(out / "profile.json", "w") as f:
            json.dump(res, f, indent=1, sort_keys=True)
            f.write("\n")
        result = {"ok": True}
    except Exception as e:
        result = {"ok": False, "message": f"{type(e).__name__}: {e}"}
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(result) + "\n")
