import pandas as pd


class InvalidSubmissionError(Exception):
    pass


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    if "species" not in submission.columns or "id" not in submission.columns:
        raise InvalidSubmissionError("submission needs columns id and species")
    if len(submission) != len(answers):
        raise InvalidSubmissionError(f"expected {len(answers)} rows, got {len(submission)}")
    if submission["species"].isna().any():
        raise InvalidSubmissionError("submission has missing species")
    merged = answers.merge(submission, on="id", how="left", suffixes=("", "_pred"))
    if merged["species_pred"].isna().any():
        raise InvalidSubmissionError("submission ids do not match the test ids")
    return float((merged["species"] == merged["species_pred"]).mean())
