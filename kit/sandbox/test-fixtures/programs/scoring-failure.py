# Writes a submission with the wrong column name: scoring_failure / column_mismatch.
import os
import pandas as pd
test = pd.read_csv(os.path.join(os.environ["DATA_DIR"], "test.csv"))
pd.DataFrame({"id": test["id"], "prediction": 0}).to_csv("submission.csv", index=False)
print("Final Validation Score: 0.5")
