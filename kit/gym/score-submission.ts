import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MetricLoadError, PythonError } from "./errors.js";
import { packagePaths } from "./load-task.js";
import { runHarness } from "./package-harness.js";
import type { TaskPackage } from "./types.js";

/** A score, or a typed scoring failure carrying the metric's own message. */
export type ScoreResult =
  | { readonly ok: true; readonly score: number }
  | { readonly ok: false; readonly kind: "invalid" | "error"; readonly message: string };

/** Options the harness passes to the metric class constructor when it has no defaults. */
export function metricOptions(task: TaskPackage): Record<string, unknown> {
  const m = task.meta;
  return {
    value: m.targetColumns.length === 1 ? m.targetColumns[0] : m.trainTarget,
    higher_is_better: m.higherIsBetter,
    id_column: m.idColumn,
  };
}

/**
 * Score a submission CSV file against the package's hidden answers with the package's own
 * utils/metric.py: validate_submission(submission, answers), then evaluate(answers, submission),
 * run by /usr/bin/python3. Invalid submissions and metric crashes come back as `ok: false`;
 * a metric.py that cannot be loaded throws MetricLoadError.
 */
export async function scoreSubmission(task: TaskPackage, submissionCsv: string): Promise<ScoreResult> {
  const p = packagePaths(task.dir);
  if (!existsSync(submissionCsv))
    return { ok: false, kind: "invalid", message: `no submission file at ${submissionCsv}` };
  const r = await runHarness<{ ok: boolean; score?: number; kind?: string; message?: string }>(
    "metric_harness.py",
    ["score", p.metric, p.answers, submissionCsv, JSON.stringify(metricOptions(task))],
    { stage: "score", file: p.metric, read: [dirname(p.metric), p.answers, submissionCsv] },
  );
  if (r.ok && typeof r.score === "number") return { ok: true, score: r.score };
  if (r.kind === "load") throw new MetricLoadError(r.message ?? `cannot load ${p.metric}`, p.metric);
  if (r.kind === "invalid") return { ok: false, kind: "invalid", message: r.message ?? "invalid submission" };
  if (r.kind === "error") return { ok: false, kind: "error", message: r.message ?? "metric error" };
  throw new PythonError(`metric harness: unexpected reply ${JSON.stringify(r).slice(0, 200)}`, p.metric);
}

/** One scoring job of `scoreMany`: file paths plus the constructor options. */
export interface ScoreCase {
  readonly metricPy: string;
  readonly answersCsv: string;
  readonly submissionCsv: string;
  readonly options?: Record<string, unknown>;
}

/** Score many submissions in one Python process (one interpreter start for all of them). */
export async function scoreMany(cases: readonly ScoreCase[]): Promise<ScoreResult[]> {
  if (cases.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), "openmle-score-"));
  try {
    const file = join(dir, "cases.json");
    writeFileSync(
      file,
      JSON.stringify(
        cases.map((c) => ({
          metric: c.metricPy,
          answers: c.answersCsv,
          submission: c.submissionCsv,
          options: c.options ?? {},
        })),
      ),
    );
    const r = await runHarness<{
      ok: boolean;
      results: { ok: boolean; score?: number; kind?: string; message?: string }[];
    }>("metric_harness.py", ["score-many", file], {
      stage: "score",
      file: cases[0]!.metricPy,
      read: [file, ...cases.flatMap((c) => [dirname(c.metricPy), c.answersCsv, c.submissionCsv])],
    });
    return r.results.map((x, i) => {
      if (x.ok && typeof x.score === "number") return { ok: true, score: x.score };
      if (x.kind === "load") throw new MetricLoadError(x.message ?? "cannot load metric", cases[i]!.metricPy);
      return { ok: false, kind: x.kind === "invalid" ? "invalid" : "error", message: x.message ?? "scoring failed" };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
