import type { TaskPackage } from "../../../gym/types.js";
import { fragment, pyStr, type Fragment } from "./fragment.js";

/** The task's tables (a missing test table is the sample submission's ids). */
export function readTables(task: TaskPackage): Fragment {
  const f = task.meta.files;
  return fragment(
    "data.tables",
    { defines: ["read_table", "train", "test", "sample"], uses: ["os", "DATA_DIR", "pd", "ID_COL"] },
    `def read_table(name):
    path = os.path.join(DATA_DIR, name)
    return pd.read_csv(path) if os.path.isfile(path) else None

train = read_table(${pyStr(f.train)})
test = read_table(${pyStr(f.test)})
sample = read_table(${pyStr(f.sampleSubmission)})
if test is None:
    test = sample[[ID_COL]].copy()
`,
  );
}

const subsample = (name: string, keep: string, uses: readonly string[]): Fragment =>
  fragment(
    name,
    { defines: ["train"], uses: ["MAX_TRAIN_ROWS", "train", ...uses] },
    `if MAX_TRAIN_ROWS and len(train) > MAX_TRAIN_ROWS:
    train = ${keep}
    train = train.reset_index(drop=True)
`,
  );

/** The row cap of i.i.d. rows: a random subsample, kept in file order. */
export const randomRows = subsample(
  "data.random_rows",
  "train.sample(MAX_TRAIN_ROWS, random_state=SEED).sort_index()",
  ["SEED"],
);

/** The row cap of a time series: its latest rows. */
export const latestRows = subsample("data.latest_rows", "train.tail(MAX_TRAIN_ROWS)", []);

/** The columns features are made from: all but the id and the targets. */
export const featureColumns = fragment(
  "data.feature_columns",
  { defines: ["feature_columns"], uses: ["ID_COL", "TRAIN_TARGET", "TARGET_COLUMNS"] },
  `
def feature_columns(df):
    drop = {ID_COL, TRAIN_TARGET, *TARGET_COLUMNS}
    return [c for c in df.columns if c not in drop]
`,
);

/**
 * The target `y`: class codes 0..N_CLASSES-1 over the sorted labels (a column per class in train: the arg-max
 * column), or the numeric values with the rows that have none dropped.
 */
export const target = fragment(
  "target",
  {
    defines: ["raw_y", "CLASSES", "LABELS", "ORIGINAL", "y", "N_CLASSES", "keep", "train"],
    uses: ["TASK_TYPE", "TRAIN_TARGET", "train", "pd", "np", "TARGET_COLUMNS"],
  },
  `if TASK_TYPE == "classification":
    if TRAIN_TARGET in train.columns:
        raw_y = train[TRAIN_TARGET]
    else:  # one column per class in train: the label is the arg-max column
        raw_y = pd.Series(np.array(TARGET_COLUMNS)[train[TARGET_COLUMNS].values.argmax(axis=1)])
        CLASSES = None
    LABELS = sorted(raw_y.astype(str).unique())
    ORIGINAL = {str(v): v for v in raw_y.unique()}
    y = raw_y.astype(str).map({label: i for i, label in enumerate(LABELS)}).values.astype(int)
    N_CLASSES = len(LABELS)
else:
    y = pd.to_numeric(train[TRAIN_TARGET], errors="coerce").astype(float).values
    keep = ~np.isnan(y)
    train, y = train[keep].reset_index(drop=True), y[keep]
    N_CLASSES = 0
`,
);
