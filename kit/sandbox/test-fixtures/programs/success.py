# A real model: logistic regression on x1, x2, validated on a hold-out split.
import os
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

data = os.environ["DATA_DIR"]
train = pd.read_csv(f"{data}/train.csv")
test = pd.read_csv(f"{data}/test.csv")
X, y = train[["x1", "x2"]], train["label"]
Xtr, Xva, ytr, yva = train_test_split(X, y, test_size=0.25, random_state=0)
model = LogisticRegression().fit(Xtr, ytr)
print(f"Final Validation Score: {model.score(Xva, yva):.4f}")
model.fit(X, y)
pd.DataFrame({"id": test["id"], "label": model.predict(test[["x1", "x2"]])}).to_csv("submission.csv", index=False)
