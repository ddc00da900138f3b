"""Accuracy on the `label` column, matched by id (fixture metric in the spec's layout)."""
import pandas as pd


class TinyAccuracy:
    def __init__(self, value: str = "label", higher_is_better: bool = True):
        self.value = value
        self.higher_is_better = higher_is_better

    def validate_submission(self, submission: pd.DataFrame, ground_truth: pd.DataFrame):
        if list(submission.columns) != list(ground_truth.columns):
            raise ValueError(f"Submission columns {list(submission.columns)} do not match expected columns {list(ground_truth.columns)}")
        if len(submission) != len(ground_truth):
            raise ValueError(f"Submission has {len(submission)} rows, expected {len(ground_truth)} rows")
        if submission[self.value].isna().any():
            raise ValueError("Submission contains NaN values")
        if set(submission["id"]) != set(ground_truth["id"]):
            raise ValueError("Submission ids do not match the test ids")

    def evaluate(self, y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
        merged = y_true.merge(y_pred, on="id", suffixes=("_true", "_pred"))
        return float((merged[f"{self.value}_true"] == merged[f"{self.value}_pred"]).mean())
