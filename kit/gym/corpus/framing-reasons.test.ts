import { describe, expect, test } from "vitest";
import { frameCandidate } from "./framing.js";
import { framingChoices } from "./framing-reasons.js";
import type { Candidate, ColumnProfile, FramingHints, TableProfile } from "./types.js";

const cand = (hints: FramingHints): Candidate => ({
  id: "t", source: "r", package: "p", version: "1", object: "o", licence: "", description: "d", hints,
});
const col = (name: string, type: ColumnProfile["type"], nUnique: number, extra: Partial<ColumnProfile> = {}): ColumnProfile => ({
  name, type, nUnique, nMissing: 0, topShare: 1 / nUnique, ...extra,
});
const table = (nRows: number, columns: ColumnProfile[]): TableProfile => ({ nRows, kind: "table", columns, signatures: [] });

/** The choices as `field value: why` lines (the split's seed left out: a hash of the id). */
function lines(p: TableProfile, hints: FramingHints): string[] {
  const r = frameCandidate(cand(hints), p);
  if ("rejected" in r) throw new Error(r.rejected);
  return framingChoices(r.framings[0]!, p, hints).map((c) => `${c.field} ${c.value.replace(/, seed \d+/, "")}: ${c.why}`);
}

describe("framingChoices: the reason of every rule, hand-checked", () => {
  const cases: { name: string; p: TableProfile; hints: FramingHints; want: string[] }[] = [
    {
      name: "regression: a near-copy, a name copy and a row-name column dropped; an `id` of 40 values is a subject: group split",
      p: table(500, [
        col("rowname", "integer", 500, { monotone: true }),
        col("id", "integer", 40),
        col("area", "numeric", 500, { corr: { price: 0.987 } }),
        col("price", "numeric", 480, { corr: { area: 0.987 } }),
        col("log_price", "numeric", 480),
      ]),
      hints: { targets: ["price"] },
      want: [
        "target price: regression: a numeric column with 480 distinct values",
        "metric rmse (lower is better): a regression target (the profile has no skewness, so never mae by rule)",
        "split group on id, 20 % of rows to test: `id` names repeated subjects (40 groups over 500 rows): test rows come from subjects never seen in training",
        "drop area: a near-copy of the target (|r| = 0.987 >= 0.95)",
        "drop log_price: its name contains the target's: a transform or copy of it",
        "drop rowname: an identifier (one value per row): it tells nothing a model should learn",
        "modality tabular: no file, text or time-ordered target",
        "idColumn row_id: generated (random integers); the table's own `id` column is not the id",
      ],
    },
    {
      name: "binary classification on repeated subjects: roc_auc, a group split",
      p: table(600, [col("patient", "categorical", 60, { topShare: 0.02 }), col("dose", "numeric", 50), col("cured", "categorical", 2, { topShare: 0.55 })]),
      hints: { targets: ["cured"] },
      want: [
        "target cured: classification: a categorical column with 2 levels",
        "metric roc_auc (higher is better): a binary target",
        "split group on patient, 20 % of rows to test: `patient` names repeated subjects (60 groups over 600 rows): test rows come from subjects never seen in training",
        "modality tabular: no file, text or time-ordered target",
        "idColumn id: generated (random integers): neither the id nor the row order tells anything about the target",
      ],
    },
    {
      name: "imbalanced multi-class with dates: macro_f1, a time split; whole numbers read as classes",
      p: table(300, [col("day", "datetime", 300, { monotone: true }), col("grade", "integer", 4, { topShare: 0.7 })]),
      hints: { targets: ["grade"] },
      want: [
        "target grade: classification: whole numbers with 4 values (at most 20), read as classes; a regression metric makes it a regression",
        "metric macro_f1 (higher is better): 4 classes, the largest 70 % of rows (> 60 %)",
        "split time on day, 20 % of rows to test: `day` holds dates",
        "modality tabular: no file, text or time-ordered target",
        "idColumn id: generated (random integers): neither the id nor the row order tells anything about the target",
      ],
    },
    {
      name: "hints are reported as given; a long text column makes the modality text; a large table is subsampled",
      p: table(5000, [col("review", "text", 5000, { meanWords: 23.4 }), col("stars", "integer", 5, { topShare: 0.3 })]),
      hints: { targets: ["stars"], metric: "rmse", split: { kind: "random" }, drop: [] },
      want: [
        "target stars: regression: the task type of the given metric rmse",
        "metric rmse (lower is better): given",
        "split random, 20 % of rows to test: given",
        "modality text: `review` averages 23.4 words a value (>= 5)",
        "idColumn id: generated (random integers): neither the id nor the row order tells anything about the target",
        "maxRows 4000: a deterministic subsample of the 5000 rows (> 4000)",
      ],
    },
  ];
  test.each(cases)("$name", ({ p, hints, want }) => expect(lines(p, hints)).toEqual(want));
});
