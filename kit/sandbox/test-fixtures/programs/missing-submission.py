# Trains and reports a score but never writes submission.csv.
import os
import pandas as pd
train = pd.read_csv(os.path.join(os.environ["DATA_DIR"], "train.csv"))
print("Final Validation Score: 0.5")
