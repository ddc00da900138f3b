from pathlib import Path

import pandas as pd


def prepare(raw: Path, public: Path, private: Path):
    df = pd.read_csv(raw / "penguins.csv").dropna(subset=["species"]).reset_index(drop=True)
    df.insert(0, "id", range(len(df)))
    test = df[df["id"] % 4 == 0]
    train = df[df["id"] % 4 != 0]
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=["species"]).to_csv(public / "test.csv", index=False)
    test[["id", "species"]].to_csv(private / "answers.csv", index=False)
    sample = test[["id"]].assign(species="Adelie")
    sample.to_csv(public / "sample_submission.csv", index=False)
