/** One deterministic check: its verdict and the evidence behind it. */
export type CheckStatus = "pass" | "warn" | "fail" | "skip";

export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  readonly message: string;
  readonly evidence: Readonly<Record<string, unknown>>;
}

/** The quality report of one package: every check, whether the metric is valid, whether all passed. */
export interface QualityReport {
  readonly taskId: string;
  readonly dir: string;
  /** No check failed. */
  readonly passed: boolean;
  /** Every metric-verification check passed ("metric-valid", the paper's Fig. 3). */
  readonly metricValid: boolean;
  readonly checks: readonly CheckResult[];
  readonly durationMs: number;
}

/** Names of the metric-verification checks (they decide `metricValid`). */
export const METRIC_CHECKS = [
  "metric_self_score",
  "metric_sample_valid",
  "metric_shuffled_worse",
  "metric_rejects_malformed",
  "trivial_rule",
] as const;
