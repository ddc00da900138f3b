from pathlib import Path

import pandas as pd


def prepare(raw: Path, public: Path, private: Path):
    # Published-package style: the harness creates public/ and private/ before calling prepare.
    df = pd.read_csv(raw / "houses.csv")
    df = df.sample(frac=1.0, random_state=7).reset_index(drop=True)
    test = df.iloc[:60]
    train = df.iloc[60:]
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=["SalePrice"]).to_csv(public / "test.csv", index=False)
    test[["Id", "SalePrice"]].to_csv(private / "test_answer.csv", index=False)
    sample = test[["Id"]].copy()
    sample["SalePrice"] = 180000.0
    sample.to_csv(public / "sample_submission.csv", index=False)
