import type { TraceStep } from "../chooser.js";
import { fragment, type Fragment } from "./fragment.js";

/**
 * The submission frame: a probability per class column, the positive-class probability (AUC, log loss),
 * the original labels, or the values; the ids first.
 */
export const submissionColumns = fragment(
  "submission.columns",
  {
    defines: ["col_labels", "pos", "out"],
    uses: [
      "TASK_TYPE",
      "TARGET_COLUMNS",
      "CLASSES",
      "LABELS",
      "pd",
      "test_pred",
      "PROBA_OUTPUT",
      "ORIGINAL",
      "ID_COL",
      "test",
      "sample",
    ],
  },
  `if TASK_TYPE == "classification" and len(TARGET_COLUMNS) > 1:
    col_labels = [str(c) for c in (CLASSES or TARGET_COLUMNS)]
    pos = {label: i for i, label in enumerate(LABELS)}
    out = pd.DataFrame({c: test_pred[:, pos[l]] if l in pos else 0.0 for c, l in zip(TARGET_COLUMNS, col_labels)})
elif TASK_TYPE == "classification" and PROBA_OUTPUT:
    out = pd.DataFrame({TARGET_COLUMNS[0]: test_pred[:, -1]})
elif TASK_TYPE == "classification":
    out = pd.DataFrame({TARGET_COLUMNS[0]: [ORIGINAL[LABELS[i]] for i in test_pred.argmax(axis=1)]})
else:
    out = pd.DataFrame({TARGET_COLUMNS[0]: test_pred})
out.insert(0, ID_COL, test[ID_COL].values if ID_COL in test.columns else sample[ID_COL].values[: len(out)])
`,
);

/** The "sample" writer: exactly the sample submission's rows (by id) and columns, missing rows filled. */
export const alignToSample = fragment(
  "submission.align",
  {
    defines: ["position", "rows", "sub", "c", "values", "filler", "out"],
    uses: ["WRITER", "pd", "np", "out", "ID_COL", "sample", "TARGET_COLUMNS"],
  },
  `if WRITER == "sample":  # exactly the sample submission's rows (by id) and columns
    position = pd.Series(np.arange(len(out)), index=out[ID_COL].astype(str))
    rows = position[~position.index.duplicated()].reindex(sample[ID_COL].astype(str)).values
    sub = sample.copy()
    for c in TARGET_COLUMNS:
        values = out[c].values
        filler = pd.Series(values).mode().iloc[0] if values.dtype == object else float(np.mean(values))
        sub[c] = [values[int(r)] if r == r else filler for r in rows]
    out = sub[list(sample.columns)]
`,
);

/** The program contract's end: submission.csv in the working directory, then the validation score line. */
export const writeSubmission = fragment(
  "submission.write",
  { uses: ["out", "time", "T0", "final_score"] },
  `out.to_csv("submission.csv", index=False)
print(f"wrote submission.csv {out.shape} ({time.time() - T0:.1f}s)")
print(f"Final Validation Score: {final_score:.6f}")
`,
);

export const TRACE_PREFIX = "# grammar-trace: ";

/** The decision trace as the last line, a comment, so `logProb` can re-score the program later. */
export function traceComment(trace: readonly TraceStep[]): Fragment {
  return fragment("trace", {}, `${TRACE_PREFIX}${JSON.stringify(trace.map((t) => [t.name, t.value]))}\n`);
}
