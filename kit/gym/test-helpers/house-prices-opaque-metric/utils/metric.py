import numpy as np
import pandas as pd


class Metric:
    """Scores a submission of this competition against the held-out answers."""

    def __init__(self, value: str = "SalePrice", higher_is_better: bool = False):
        self.value = value
        self.higher_is_better = higher_is_better

    def evaluate(self, y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
        merged = y_true.merge(y_pred, on="Id", suffixes=("_true", "_pred"))
        t = np.log1p(merged[self.value + "_true"].astype(float))
        p = np.log1p(np.clip(merged[self.value + "_pred"].astype(float), 0, None))
        return float(np.sqrt(np.mean((t - p) ** 2)))

    def validate_submission(self, submission: pd.DataFrame, ground_truth: pd.DataFrame):
        if self.value not in submission.columns:
            raise ValueError(f"submission lacks column '{self.value}'")
        if len(submission) != len(ground_truth):
            raise ValueError(f"submission has {len(submission)} rows, expected {len(ground_truth)}")
        if submission[self.value].isna().any():
            raise ValueError("submission has NaN predictions")
        if set(submission["Id"]) != set(ground_truth["Id"]):
            raise ValueError("submission ids differ from the test ids")
