import { createHash } from "node:crypto";

/**
 * What a record keeps of its submission's predictions, so a caller far from the job folder (a queue
 * client, whose programs ran on another machine) can compare them with the sample submission:
 * - rows: the prediction rows (each non-empty line after the header, trimmed, from its first comma on,
 *   so the id column is dropped; "" for a line without a comma);
 * - distinct: how many different rows there are;
 * - ordered: sha256 (first 16 hex digits) of the rows joined by "\n", in file order;
 * - sorted: the same of the rows sorted (UTF-16 code-unit order), so a permutation prints the same.
 */
export interface SubmissionPrint {
  readonly rows: number;
  readonly distinct: number;
  readonly ordered: string;
  readonly sorted: string;
}

/** The prediction rows of a submission CSV (as above). */
export function predictionRows(csv: string): string[] {
  const lines = csv
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return lines.slice(1).map((l) => {
    const i = l.indexOf(",");
    return i < 0 ? "" : l.slice(i + 1).trim();
  });
}

const sha = (rows: readonly string[]) => createHash("sha256").update(rows.join("\n")).digest("hex").slice(0, 16);

/** The print of a submission CSV's text (pure). */
export function submissionPrint(csv: string): SubmissionPrint {
  const rows = predictionRows(csv);
  return { rows: rows.length, distinct: new Set(rows).size, ordered: sha(rows), sorted: sha([...rows].sort()) };
}
