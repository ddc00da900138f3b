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

from corpus_profile import profile, write_result


def raw_profile(table, out, opts):
    """The corpus profile of `table`; a JSON or JSONL table is first written to out/table.csv."""
    if table.suffix.lower() in (".json", ".jsonl"):
        df = pd.read_json(table, lines=table.suffix.lower() == ".jsonl")
        table = out / "table.csv"
        df.to_csv(table, index=False)
    return profile(str(table), {"kind": "table", **opts})


if __name__ == "__main__":
    table, out = Path(sys.argv[1]), Path(sys.argv[2])
    write_result(lambda: raw_profile(table, out, json.loads(sys.argv[3])), out / "profile.json")
