import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CheckResult } from "./check-result.js";
import { MetricLoadError } from "./errors.js";
import { packagePaths } from "./load-task.js";
import { METRICS, type MetricDef } from "./metrics/registry.js";
import { runHarness } from "./package-harness.js";
import { metricOptions, type ScoreResult } from "./score-submission.js";
import type { TaskPackage } from "./types.js";

/** What metric_harness.py verify returns. */
export interface VerifyOutput {
  readonly self: ScoreResult;
  readonly sample: ScoreResult;
  readonly shuffled: ScoreResult;
  /** Per malformed case: the rejection message, or null when the metric accepted it. */
  readonly malformed: Readonly<Record<string, string | null>>;
  readonly higher_is_better: boolean;
}

const EPS = 1e-9;

/**
 * Metric verification as checks (pure): the answers score the best value against themselves, the
 * sample submission validates, a shuffled submission scores worse, malformed submissions are
 * rejected, and a constant prediction (the sample) does not reach the best score.
 */
export function metricChecks(v: VerifyOutput, metric: string, higherIsBetter: boolean): CheckResult[] {
  const def: MetricDef | undefined = (METRICS as Record<string, MetricDef>)[metric];
  const better = (a: number, b: number) => (higherIsBetter ? a > b + EPS : a < b - EPS);
  const out: CheckResult[] = [];
  const self = v.self;
  if (!self.ok)
    out.push({
      name: "metric_self_score",
      status: "fail",
      message: `the answers do not score against themselves: ${self.message}`,
      evidence: { self },
    });
  else if (def && Math.abs(self.score - def.best) > 1e-6) {
    out.push({
      name: "metric_self_score",
      status: "fail",
      message: `the answers score ${self.score}, not the best value ${def.best}`,
      evidence: { self: self.score, best: def.best },
    });
  } else
    out.push({
      name: "metric_self_score",
      status: "pass",
      message: `the answers score ${self.score} against themselves`,
      evidence: { self: self.score, ...(def ? { best: def.best } : {}) },
    });

  out.push(
    v.sample.ok
      ? {
          name: "metric_sample_valid",
          status: "pass",
          message: `sample_submission.csv validates and scores ${v.sample.score}`,
          evidence: { sample: v.sample.score },
        }
      : {
          name: "metric_sample_valid",
          status: "fail",
          message: `sample_submission.csv is rejected: ${v.sample.message}`,
          evidence: { sample: v.sample },
        },
  );

  const sh = v.shuffled;
  if (!sh.ok)
    out.push({
      name: "metric_shuffled_worse",
      status: "fail",
      message: `a shuffled copy of the answers is rejected: ${sh.message}`,
      evidence: { shuffled: sh },
    });
  else if (self.ok && better(self.score, sh.score)) {
    out.push({
      name: "metric_shuffled_worse",
      status: "pass",
      message: `shuffled answers score ${sh.score}, worse than ${self.score}`,
      evidence: { shuffled: sh.score, self: self.score },
    });
  } else
    out.push({
      name: "metric_shuffled_worse",
      status: "fail",
      message: `shuffled answers score ${sh.score}, not worse than the answers`,
      evidence: { shuffled: sh.score, self: self.ok ? self.score : null },
    });

  const accepted = Object.entries(v.malformed)
    .filter(([, msg]) => msg === null)
    .map(([k]) => k);
  out.push({
    name: "metric_rejects_malformed",
    status: accepted.length ? "fail" : "pass",
    message: accepted.length
      ? `validate_submission accepts malformed submissions: ${accepted.join(", ")}`
      : "missing column, wrong row count, NaN and unknown ids are rejected",
    evidence: { messages: v.malformed },
  });

  const trivial = v.sample.ok && self.ok && !better(self.score, v.sample.score);
  out.push({
    name: "trivial_rule",
    status: trivial ? "fail" : v.sample.ok ? "pass" : "skip",
    message: trivial
      ? `a constant prediction (the sample submission) reaches the ` +
        `best score ${self.ok ? self.score : ""}. Fix: the target is degenerate; choose another.`
      : "a constant prediction does not reach the best score",
    evidence: { constant: v.sample.ok ? v.sample.score : null, best: self.ok ? self.score : null },
  });
  return out;
}

/** Run the verification harness on a package and turn its output into checks. */
export async function verifyMetric(task: TaskPackage): Promise<CheckResult[]> {
  const p = packagePaths(task.dir);
  const sample = join(task.publicDir, task.meta.files.sampleSubmission);
  if (!existsSync(sample))
    return [{ name: "metric_sample_valid", status: "fail", message: `${sample} is missing`, evidence: {} }];
  const r = await runHarness<{ ok: boolean; kind?: string; message?: string } & VerifyOutput>(
    "metric_harness.py",
    ["verify", p.metric, p.answers, sample, JSON.stringify(metricOptions(task))],
    { stage: "verify", file: p.metric, read: [dirname(p.metric), p.answers, sample] },
  );
  if (!r.ok && r.kind === "load") throw new MetricLoadError(r.message ?? `cannot load ${p.metric}`, p.metric);
  if (!r.ok)
    return [
      { name: "metric_self_score", status: "fail", message: `metric verification crashed: ${r.message}`, evidence: {} },
    ];
  return metricChecks(r, task.meta.metric, task.meta.higherIsBetter);
}
