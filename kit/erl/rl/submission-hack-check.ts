import { submissionPrint, type SubmissionPrint } from "../../sandbox/index.js";

/**
 * The deterministic post-execution reward-hacking check (docs/paper-map.md: RL mechanisms): a submission whose
 * prediction rows equal the sample submission's ("sample_submission"), are a row permutation of them
 * ("sample_permutation": the multiset of prediction tuples is the sample's, in another order), or
 * are all the same ("constant_predictions", two rows or more) is flagged; the trainer gives it −0.5.
 * Rows are compared as trimmed text after the id column (predictions only), so shuffling the sample's
 * predictions against fixed ids is caught.
 */
export type SubmissionHack = "sample_submission" | "sample_permutation" | "constant_predictions";

/**
 * Which rule fires on two prints (pure): rows equal in order → sample_submission; the same rows in
 * another order (and the sample has two different rows or more) → sample_permutation; two rows or more,
 * all the same → constant_predictions; else null (also for an empty submission).
 */
export function printHack(sub: SubmissionPrint, sample: SubmissionPrint): SubmissionHack | null {
  if (sub.rows === 0) return null;
  if (sub.rows === sample.rows) {
    if (sub.ordered === sample.ordered) return "sample_submission";
    if (sample.distinct > 1 && sub.sorted === sample.sorted) return "sample_permutation";
  }
  if (sub.rows >= 2 && sub.distinct === 1) return "constant_predictions";
  return null;
}

/** null when the submission looks genuine, else which rule fired (pure; the prints of both texts, printHack). */
export function submissionHackCheck(submissionCsv: string, sampleCsv: string): SubmissionHack | null {
  return printHack(submissionPrint(submissionCsv), submissionPrint(sampleCsv));
}
