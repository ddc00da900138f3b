from pathlib import Path

import pandas as pd


def prepare(raw: Path, public: Path, private: Path):
    df = pd.read_csv(raw / "customers.csv")
    test = df.iloc[-40:]
    train = df.iloc[:-40]
    public.mkdir(parents=True, exist_ok=True)
    private.mkdir(parents=True, exist_ok=True)
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=["churned"]).to_csv(public / "test.csv", index=False)
    test[["customer_id", "churned"]].to_csv(private / "test_answer.csv", index=False)
    sample = test[["customer_id"]].copy()
    sample["churned"] = 0.5
    sample.to_csv(public / "sample_submission.csv", index=False)
