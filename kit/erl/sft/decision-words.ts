import type { SituationKl } from "./decision-diff.js";

/** Where a feature's words go in a situation's sentence (see `situationWords`). */
type Slot = "size" | "noun" | "cols" | "kind" | "detail" | "parent";
interface Words {
  readonly slot: Slot;
  readonly text: string;
}

const spaced = (s: string) => s.replaceAll("_", " ");

/** Training-row buckets of decision-features.ts (<500, 500-2k, 2k-10k, >10k, ? unknown) as a size word. */
const ROW_WORDS: Readonly<Record<string, string>> = {
  "<500": "small",
  "500-2k": "mid-sized",
  "2k-10k": "large",
  ">10k": "very large",
  "?": "unknown-size",
};

const RANK_WORDS: Readonly<Record<string, string>> = {
  best: "parent is the best shown",
  below: "parent is below the best shown",
  alone: "parent is the only score shown",
};

/**
 * The one table from decision-feature keys (decision-features.ts: `key:value`) to words. A key missing here is
 * shown as the raw feature; a value a key does not know gets that key's general form.
 */
export const FEATURE_WORDS: Readonly<Record<string, (value: string) => Words | null>> = {
  any: () => null,
  rows: (v) => ({ slot: "size", text: ROW_WORDS[v] ?? `${v}-row` }),
  cols: (v) => ({ slot: "cols", text: v === "?" ? "unknown column count" : `${v} columns` }),
  target: (v) => ({ slot: "noun", text: v === "regression" ? "regression" : `${spaced(v)} classification` }),
  kind: (v) => ({ slot: "kind", text: spaced(v) }),
  missing: (v) => (v === "yes" ? { slot: "detail", text: "missing values" } : null),
  metric: (v) => ({ slot: "detail", text: v }),
  parent: (v) => ({ slot: "parent", text: v === "success" ? "parent succeeded" : `parent ended in ${spaced(v)}` }),
  parent_models: (v) => ({ slot: "parent", text: `parent has ${v} model${v === "1" ? "" : "s"}` }),
  parent_rank: (v) => ({ slot: "parent", text: RANK_WORDS[v] ?? `parent rank ${spaced(v)}` }),
};

/** One feature in words: its table entry, or the raw feature in the details when the key is unknown. */
function featureWords(feature: string): Words | null {
  const i = feature.indexOf(":");
  const key = i < 0 ? feature : feature.slice(0, i);
  const fn = FEATURE_WORDS[key];
  return fn ? fn(i < 0 ? "" : feature.slice(i + 1)) : { slot: "detail", text: feature };
}

/**
 * A decision situation in a researcher's words, read off its name `<operator>.<modality>.<decision…>` and its
 * decision features through FEATURE_WORDS:
 *
 *     "<Operator> <decision> on <size> <modality> <target>[ (<details>[; <parent>])]"
 *
 * where the details are the column count, the column kinds joined by "/", then the rest in feature order
 * (missing values, the metric, unknown features as written). E.g. draft.tabular.model with [any, rows:<500,
 * cols:<8, target:regression, kind:categorical, kind:numeric, metric:rmse] → "Draft model on small tabular
 * regression (<8 columns, categorical/numeric columns, rmse)". A name of fewer than three parts is kept as is.
 */
export function situationWords(decision: string, features: readonly string[]): string {
  const parts = decision.split(".");
  const words = features.map(featureWords).filter((w): w is Words => w !== null);
  const of = (slot: Slot) => words.filter((w) => w.slot === slot).map((w) => w.text);
  const kinds = of("kind");
  const details = [...of("cols"), ...(kinds.length ? [`${kinds.join("/")} columns`] : []), ...of("detail")].join(", ");
  const parent = of("parent").join(", ");
  const tail = [details, parent].filter(Boolean).join("; ");
  if (parts.length < 3) return `${decision}${tail ? ` (${tail})` : ""}`;
  const op = parts[0]!.charAt(0).toUpperCase() + parts[0]!.slice(1);
  const what = [...of("size"), spaced(parts[1]!), ...of("noun")].join(" ");
  return `${op} ${spaced(parts.slice(2).join(" "))} on ${what}${tail ? ` (${tail})` : ""}`;
}

/**
 * One situation's top mover in a sentence: `<situation words>: <option>[ [labels]] <p_A> → <p_B>`, where the
 * labels are that option's context labels (option-features.ts) when it has any, and p is shown to `digits`.
 */
export function shiftSentence(
  s: Pick<SituationKl, "decision" | "features" | "optionFeatures" | "topOption" | "topA" | "topB">,
  digits = 2,
): string {
  const labels = s.optionFeatures[s.topOption] ?? [];
  const option = `${spaced(s.topOption)}${labels.length ? ` [${labels.join(", ")}]` : ""}`;
  return `${situationWords(s.decision, s.features)}: ${option} ${s.topA.toFixed(digits)} → ${s.topB.toFixed(digits)}`;
}
