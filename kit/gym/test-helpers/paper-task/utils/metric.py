import pandas as pd
from sklearn.metrics import roc_auc_score


class ChurnAucScore:
    """ROC-AUC of the churn probability (a paper-format metric class with its own name)."""

    def __init__(self, value: str = "churned", higher_is_better: bool = True):
        self.value = value
        self.higher_is_better = higher_is_better

    def evaluate(self, y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
        merged = y_true.merge(y_pred, on="customer_id", suffixes=("_true", "_pred"))
        return float(roc_auc_score(merged[self.value + "_true"], merged[self.value + "_pred"]))

    def validate_submission(self, submission: pd.DataFrame, ground_truth: pd.DataFrame):
        if self.value not in submission.columns:
            raise ValueError(f"submission lacks column '{self.value}'")
        if len(submission) != len(ground_truth):
            raise ValueError(f"submission has {len(submission)} rows, expected {len(ground_truth)}")
        if submission[self.value].isna().any():
            raise ValueError("submission has NaN predictions")
        if set(submission["customer_id"]) != set(ground_truth["customer_id"]):
            raise ValueError("submission ids differ from the test ids")
