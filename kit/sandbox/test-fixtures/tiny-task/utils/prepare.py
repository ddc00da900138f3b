"""Deterministic split of raw/all.csv: the first 60 rows train, the last 20 test."""
from pathlib import Path
import pandas as pd


def prepare(raw: Path, public: Path, private: Path):
    df = pd.read_csv(raw / "all.csv")
    train, test = df.iloc[:60], df.iloc[60:]
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=["label"]).to_csv(public / "test.csv", index=False)
    test[["id"]].assign(label=0).to_csv(public / "sample_submission.csv", index=False)
    test[["id", "label"]].to_csv(private / "test_answer.csv", index=False)
