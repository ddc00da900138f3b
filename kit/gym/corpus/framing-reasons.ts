import { getMetric } from "../metrics/registry.js";
import { FramingConfig, isIdLike, isText, norm } from "./framing.js";
import type { ColumnProfile, Framing, FramingHints, TableProfile } from "./types.js";

/** One decision of the framing rules, for a person: the field, the value chosen and the rule (or hint) behind it. */
export interface FramingChoice {
  readonly field: "target" | "metric" | "split" | "drop" | "modality" | "idColumn" | "maxRows";
  readonly value: string;
  readonly why: string;
}

const fmt = (x: number, d = 2) => x.toFixed(d).replace(/\.?0+$/, "");

/**
 * Why `framing` (frameCandidate's, on profile `p` with `hints`) chose what it did, one line per field, in the rules'
 * words (framing.ts, rules 3–9). Pure: re-derives each reason from the profile, so it explains exactly the rules
 * that ran. A hinted field says "given".
 */
export function framingChoices(
  f: Framing,
  p: TableProfile,
  hints: FramingHints = {},
  cfg: Partial<FramingConfig> = {},
): FramingChoice[] {
  const k = FramingConfig.parse(cfg);
  const s = f.spec;
  const col = (name: string | undefined) => p.columns.find((c) => c.name === name);
  const target = col(s.target)!;
  const out: FramingChoice[] = [];
  // 3. target and its task type
  out.push({
    field: "target",
    value: s.target,
    why: `${f.taskType}: ${targetWhy(target, f.taskType, hints.metric, k)}`,
  });
  // 6. metric
  const metric = s.metric;
  const classes = `${target.nUnique} classes, the largest ${fmt(100 * target.topShare, 1)} % of rows`;
  const metricWhy = hints.metric
    ? "given"
    : f.taskType === "regression"
      ? "a regression target (the profile has no skewness, so never mae by rule)"
      : target.nUnique === 2
        ? "a binary target"
        : target.topShare > k.macroF1TopShare
          ? `${classes} (> ${fmt(100 * k.macroF1TopShare)} %)`
          : `${classes} (<= ${fmt(100 * k.macroF1TopShare)} %)`;
  out.push({
    field: "metric",
    value: `${metric} (${getMetric(metric).higherIsBetter ? "higher" : "lower"} is better)`,
    why: metricWhy,
  });
  // 5. split
  const sp = s.split!;
  const size = `${fmt(100 * (sp.testSize ?? k.testSize))} % of rows to test, seed ${sp.seed}`;
  const h = hints.split ?? {};
  const splitWhy =
    h.kind || (sp.kind === "time" && h.timeColumn) || (sp.kind === "group" && h.groupColumn)
      ? "given"
      : sp.kind === "time"
        ? p.kind === "ts"
          ? "a time series"
          : col(sp.timeColumn)?.type === "datetime"
            ? `\`${sp.timeColumn}\` holds dates`
            : `\`${sp.timeColumn}\` increases down the rows and is named like time`
        : sp.kind === "group"
          ? `\`${sp.groupColumn}\` names repeated subjects (${col(sp.groupColumn)?.nUnique} groups over ` +
            `${p.nRows} rows): ` +
            "test rows come from subjects never seen in training"
          : sp.kind === "stratified"
            ? "a classification target with no time or subject column: class shares kept on both sides"
            : "a regression target with no time or subject column";
  const on = sp.kind === "time" ? ` on ${sp.timeColumn}` : sp.kind === "group" ? ` on ${sp.groupColumn}` : "";
  out.push({ field: "split", value: `${sp.kind}${on}, ${size}`, why: splitWhy });
  // 4. drop
  const given = new Set(hints.drop ?? []);
  const t = norm(s.target);
  for (const d of s.drop ?? []) {
    const c = col(d);
    const r = c && Math.abs(target.corr?.[d] ?? c.corr?.[s.target] ?? 0);
    const why = given.has(d)
      ? "given"
      : c && isIdLike(c, p.nRows)
        ? c.type === "integer" || c.type === "categorical"
          ? "an identifier (one value per row): it tells nothing a model should learn"
          : "a row-name column"
        : r !== undefined && r >= k.proxyCorr
          ? `a near-copy of the target (|r| = ${fmt(r, 3)} >= ${k.proxyCorr})`
          : t.length >= 3 && norm(d).includes(t)
            ? "its name contains the target's: a transform or copy of it"
            : "dropped by the rules";
    out.push({ field: "drop", value: d, why });
  }
  // 7. modality
  const text = p.columns.find((c) => c.name !== s.target && !(s.drop ?? []).includes(c.name) && isText(c, k));
  const modalityWhy = hints.modality
    ? "given"
    : s.modality === "image"
      ? `\`${s.fileColumn}\` names files`
      : s.modality === "text"
        ? `\`${text?.name}\` averages ${fmt(text?.meanWords ?? 0, 1)} words a value (>= ${k.textWords})`
        : s.modality === "time_series"
          ? "a time split on a regression target"
          : "no file, text or time-ordered target";
  out.push({ field: "modality", value: String(s.modality), why: modalityWhy });
  // 9. the id column
  const taken = p.columns.some((c) => c.name === "id");
  out.push({
    field: "idColumn",
    value: String(s.idColumn),
    why: taken
      ? "generated (random integers); the table's own `id` column is not the id"
      : "generated (random integers): neither the id nor the row order tells anything about the target",
  });
  // 8. size
  if (s.maxRows)
    out.push({
      field: "maxRows",
      value: String(s.maxRows),
      why: `a deterministic subsample of the ${p.nRows} rows (> ${k.maxRows})`,
    });
  return out;
}

function targetWhy(c: ColumnProfile, type: string, metric: string | undefined, k: FramingConfig): string {
  if (metric) return `the task type of the given metric ${metric}`;
  if (type === "regression") return `a ${c.type} column with ${c.nUnique} distinct values`;
  if (c.type === "categorical") return `a categorical column with ${c.nUnique} levels`;
  return (
    `whole numbers with ${c.nUnique} values (at most ${k.maxClasses}), read as classes; a regression metric ` +
    "makes it a regression"
  );
}
