/**
 * Which validation a program's printed score came from, read from its code (no execution):
 *
 *   1. the grammar policy's constants line   VALIDATION, FOLDS, HOLDOUT_FRAC = "<scheme>", k, f
 *      (kit/policy/grammar/fragments/prelude.ts): kfold → k-fold CV; holdout / time_holdout → a share f held out;
 *   2. otherwise, scikit-learn calls a hand- or LLM-written program commonly makes, the first found of
 *        (Stratified|Group|Repeated…)KFold(n_splits=k | k)  or  cross_val_score / cross_val_predict / cross_validate
 *        (…, cv=k)                                        → k-fold CV,
 *        TimeSeriesSplit(n_splits=k | k)                  → k-fold time-series CV,
 *        train_test_split(…, test_size=f)                 → a share f held out (f ≥ 1: that many rows);
 *   3. otherwise unknown.
 *
 * A heuristic over text: a program may define a split it does not use for its printed score. It labels, it
 * never gates anything.
 */
export type ValidationSchemeKind = "kfold" | "time_kfold" | "holdout" | "time_holdout" | "unknown";

export interface ValidationScheme {
  readonly kind: ValidationSchemeKind;
  /** Folds of a k-fold scheme; null otherwise. */
  readonly folds: number | null;
  /** Share of the training rows held out (holdout schemes, < 1), or a row count (≥ 1); null otherwise. */
  readonly holdout: number | null;
  /** For people: "3-fold CV", "20 % holdout", "time-ordered 20 % holdout", "unknown". */
  readonly label: string;
}

const GRAMMAR = /^VALIDATION,\s*FOLDS,\s*HOLDOUT_FRAC\s*=\s*["'](\w+)["'],\s*(\d+),\s*([\d.]+)/m;
const KFOLD = /\b(?:Repeated)?(?:Stratified|Group|StratifiedGroup)?KFold\(\s*(?:n_splits\s*=\s*)?(\d+)/;
const CV_ARG = /\bcross_val(?:_score|_predict|idate)\([^)]*?\bcv\s*=\s*(\d+)/s;
const TIME_KFOLD = /\bTimeSeriesSplit\(\s*(?:n_splits\s*=\s*)?(\d+)/;
const SPLIT = /\btrain_test_split\([^)]*?\btest_size\s*=\s*([\d.]+)/s;

const share = (f: number) => (f >= 1 ? `${f} rows` : `${Math.round(f * 1000) / 10} %`);

/** A scheme from its kind and numbers, with its label. */
export function scheme(kind: ValidationSchemeKind, folds: number | null = null, holdout: number | null = null) {
  const label =
    kind === "kfold"
      ? `${folds}-fold CV`
      : kind === "time_kfold"
        ? `${folds}-fold time-series CV`
        : kind === "holdout"
          ? `${share(holdout!)} holdout`
          : kind === "time_holdout"
            ? `time-ordered ${share(holdout!)} holdout`
            : "unknown";
  return { kind, folds, holdout, label } satisfies ValidationScheme;
}

/** The validation scheme of a program (rules above); `unknown` when the code does not say. */
export function validationScheme(code: string | null | undefined): ValidationScheme {
  if (!code) return scheme("unknown");
  const g = code.match(GRAMMAR);
  if (g) {
    const [kind, k, f] = [g[1]!, Number(g[2]), Number(g[3])];
    if (kind === "kfold") return scheme("kfold", k);
    if (kind === "holdout" || kind === "time_holdout") return scheme(kind, null, f);
  }
  const k = code.match(KFOLD) ?? code.match(CV_ARG);
  if (k) return scheme("kfold", Number(k[1]));
  const t = code.match(TIME_KFOLD);
  if (t) return scheme("time_kfold", Number(t[1]));
  const s = code.match(SPLIT);
  if (s) return scheme("holdout", null, Number(s[1]));
  return scheme("unknown");
}
