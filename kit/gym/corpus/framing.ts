import { z } from "zod";
import { getMetric } from "../metrics/registry.js";
import { freshIdColumn } from "../table-columns.js";
import type { SplitSpec, TaskSpecInput } from "../task-spec.js";
import type { Modality, TaskType } from "../types.js";
import type { Candidate, ColumnProfile, Framing, TableProfile } from "./types.js";

/**
 * The framing rules (issue 27; the paper's Fig. 3 funnel): from a candidate and the profile of its exported
 * table, the tasks to build, or one line saying why there are none. Pure and deterministic: the same
 * candidate and profile always give the same framings (no clock, no Math.random).
 *
 * 1. Rows: a table with fewer than `minRows` rows is rejected (the quality checks need >= 100 train and
 *    >= 20 test rows after the split); a target with fewer than `minRows` non-missing values is skipped.
 * 2. Roles: id-like columns (a row-name column such as `rowname`/`X` that is unique or monotone, or an
 *    integer/categorical column unique per row),
 *    time-like columns (a datetime column, a monotone column, a year/date/time name) and a group column
 *    (rule 5) are never targets.
 * 3. Targets: `hints.targets` when given (each gives one task). Else at most one classification target
 *    (a categorical column, or an integer one with a response-like name, with 2..`maxClasses` levels, the
 *    largest class share <= `maxTopShare` and the other classes' mean share >= `minClassShare`; the
 *    profile carries no smallest share, so this mean is its upper bound) and at most one regression target
 *    (a numeric or integer column with >= `minDistinct` values); each prefers a response-like name (exact
 *    name 2, a word of it 1), then the later column. kind "ts": the regression target is the `value`
 *    column, else the first series, and no classification task. Neither found: "no usable target".
 * 4. Drop: id-like columns, near-copies of the target (|corr| >= `proxyCorr`, or a name containing the
 *    target's name of >= 3 characters, e.g. `lmedv` for `medv`) and `hints.drop`.
 * 5. Split (`hints.split` overrides field by field): kind "ts" -> time on `time`; a datetime column, else
 *    a monotone column named year/date/time -> time; a subject-like name (subject, id, patient, chick, firm, ...) with
 *    `minGroups`..`groupMaxShare` x nRows distinct values -> group; classification -> stratified; else
 *    random. testSize `testSize`; seed = FNV-1a hash of the task id (a stable number, not a draw).
 * 6. Metric (`hints.metric` overrides; its task type wins): binary -> roc_auc; multi-class -> accuracy,
 *    or macro_f1 when the largest class share > `macroF1TopShare`; regression -> rmse (the profile
 *    carries no skewness, so no rule can pick mae for heavy tails).
 * 7. Modality: `hints.modality`; a file column -> image; a text column (mean words >= `textWords`) ->
 *    text; kind "ts", or a time split on a regression target -> time_series; else tabular.
 * 8. Size: above `maxRows` rows, buildTask's deterministic subsample (spec.maxRows).
 * 9. Naming: id `<candidate id>-<slug(target)>`; name and description from the candidate's description
 *    and the target; source "<package> <version>: <object>"; the candidate's licence.
 */
export const FramingConfig = z
  .object({
    /** Fewest rows (with a target) to frame: the checks need 100 train / 20 test after a 0.2 split. */
    minRows: z.number().int().positive().default(150),
    /** Most levels of a classification target. */
    maxClasses: z.number().int().min(2).default(20),
    /** Largest class share a classification target may have (above it a constant guess is near-perfect). */
    maxTopShare: z.number().gt(0).lte(1).default(0.9),
    /** Least mean share of the non-majority classes (1 - topShare) / (levels - 1). */
    minClassShare: z.number().min(0).lt(1).default(0.02),
    /** Fewest distinct values of a regression target. */
    minDistinct: z.number().int().min(2).default(10),
    /** |Pearson correlation| with the target at which a numeric column is a near-copy and dropped. */
    proxyCorr: z.number().gt(0).lte(1).default(0.95),
    /** Mean words per value from which a string column is text. */
    textWords: z.number().positive().default(5),
    /** Fewest distinct groups of a group split. */
    minGroups: z.number().int().positive().default(10),
    /** Most distinct groups of a group split, as a share of the rows (repeated subjects, not ids). */
    groupMaxShare: z.number().gt(0).lt(1).default(0.5),
    /** Largest class share above which a multi-class task is scored by macro_f1 rather than accuracy. */
    macroF1TopShare: z.number().gt(0).lte(1).default(0.6),
    /** Rows above which buildTask takes a deterministic subsample (speed of the funnel and the search). */
    maxRows: z.number().int().positive().default(4000),
    /** Share of rows that go to the test set. */
    testSize: z.number().gt(0).lt(1).default(0.2),
  })
  .strict();
export type FramingConfig = z.infer<typeof FramingConfig>;

export type FramingResult = { readonly framings: Framing[] } | { readonly rejected: string };

/** Response-like names of a classification target, and of a regression target (exact or a word of it). */
const CLASS_NAMES = (
  "class type species y outcome status diagnosis label survived target " +
  "response group category kind result grade vote party sex gender disease"
).split(" ");
const VALUE_NAMES = (
  "price wage income value y rate count cost salary sales " +
  "score yield weight mpg medv demand consumption expenditure earnings target response"
).split(" ");
const ID_NAMES = new Set(["rowname", "rownames", "x", "unnamed: 0", "...1", "row", "row.names", "obs"]);
const TIME_WORDS = ["year", "date", "time", "month", "day", "week", "quarter", "period"];
/** Names of repeated subjects (a word of the column's name; plurals match too). */
const GROUP_WORDS = (
  "subject subj id patient individual person participant animal child chick rat mouse dog plant tree " +
  "horse cow pig worker student pupil household family firm"
).split(" ");

/** Frame a candidate's exported table by the rules above. */
export function frameCandidate(c: Candidate, p: TableProfile, cfg: Partial<FramingConfig> = {}): FramingResult {
  const k = FramingConfig.parse(cfg);
  const h = c.hints ?? {};
  // 1. rows
  if (p.nRows < k.minRows) return { rejected: `${p.nRows} rows, fewer than the ${k.minRows} a split needs` };
  // 2. roles
  const group = groupColumn(p, k, h.split?.groupColumn);
  const timeCol = h.split?.timeColumn ?? timeColumn(p);
  const ids = p.columns.filter((col) => col.name !== timeCol && isIdLike(col, p.nRows)).map((col) => col.name);
  // 3. targets
  const byName = new Map(p.columns.map((col) => [col.name, col]));
  let targets: { col: ColumnProfile; type: TaskType }[];
  if (h.targets?.length) {
    const missing = h.targets.filter((t) => !byName.has(t));
    if (missing.length) return { rejected: `hinted target ${missing.join(", ")} is not a column of the table` };
    targets = h.targets.map((t) => {
      const col = byName.get(t)!;
      const cls = col.type === "categorical" || isClassLike(col, k, true);
      const type = h.metric ? getMetric(h.metric).taskType : cls ? "classification" : "regression";
      return { col, type };
    });
  } else {
    const excluded = new Set([...ids, ...(h.drop ?? []), ...(group ? [group] : []), ...(timeCol ? [timeCol] : [])]);
    const usable = (col: ColumnProfile) => !excluded.has(col.name) && p.nRows - col.nMissing >= k.minRows;
    targets = [];
    if (p.kind === "ts") {
      const series = p.columns.filter((col) => col.name !== "time" && isNumeric(col));
      const v = series.find((col) => col.name === "value") ?? series[0];
      if (v) targets.push({ col: v, type: "regression" });
    } else {
      const cls = best(
        p.columns.filter((col) => usable(col) && isClassLike(col, k, false)),
        CLASS_NAMES,
      );
      if (cls) targets.push({ col: cls, type: "classification" });
      const reg = best(
        p.columns.filter((col) => usable(col) && col !== cls && isValueLike(col, k)),
        VALUE_NAMES,
      );
      if (reg) targets.push({ col: reg, type: "regression" });
    }
  }
  if (!targets.length)
    return {
      rejected:
        `no usable target (no categorical column with 2..${k.maxClasses} balanced levels, no numeric column ` +
        `with >= ${k.minDistinct} values)`,
    };
  const framings = targets.map(({ col, type }) => frameTarget(c, p, k, col, type, { ids, group, timeCol }));
  return { framings };
}

function frameTarget(
  c: Candidate,
  p: TableProfile,
  k: FramingConfig,
  target: ColumnProfile,
  type: TaskType,
  roles: { ids: string[]; group: string | undefined; timeCol: string | undefined },
): Framing {
  const h = c.hints ?? {};
  const taskId = `${c.id}-${slug(target.name)}`;
  // 4. drop
  const t = norm(target.name);
  const proxies = p.columns.filter(
    (col) =>
      col.name !== target.name &&
      (Math.abs(target.corr?.[col.name] ?? col.corr?.[target.name] ?? 0) >= k.proxyCorr ||
        (t.length >= 3 && norm(col.name).includes(t))),
  );
  const fileCol = p.columns.find((col) => col.type === "file")?.name;
  // Role columns stay (a trending time index correlates with its series but is no copy of it) unless hinted away.
  const hinted = new Set(h.drop ?? []);
  const roleCols = [roles.group, roles.timeCol, fileCol].filter((x) => x !== undefined && !hinted.has(x));
  const keep = new Set([...roleCols, h.split?.timeColumn, h.split?.groupColumn]);
  const drop = [...new Set([...roles.ids, ...proxies.map((col) => col.name), ...(h.drop ?? [])])]
    .filter((d) => d !== target.name && !keep.has(d))
    .sort();
  // 5. split
  const split: SplitSpec = {
    kind: type === "classification" ? "stratified" : "random",
    testSize: k.testSize,
    seed: fnv1a(taskId) % 2 ** 31,
  };
  if (p.kind === "ts") Object.assign(split, { kind: "time", timeColumn: "time" });
  else if (roles.timeCol && !drop.includes(roles.timeCol))
    Object.assign(split, { kind: "time", timeColumn: roles.timeCol });
  else if (roles.group && !drop.includes(roles.group))
    Object.assign(split, { kind: "group", groupColumn: roles.group });
  Object.assign(split, h.split ?? {});
  if (split.kind !== "time") delete split.timeColumn;
  if (split.kind !== "group") delete split.groupColumn;
  // 6. metric
  const classMetric = target.nUnique === 2 ? "roc_auc" : target.topShare > k.macroF1TopShare ? "macro_f1" : "accuracy";
  const metric = h.metric ?? (type === "regression" ? "rmse" : classMetric);
  const taskType = getMetric(metric).taskType;
  // 7. modality
  const text = p.columns.some((col) => col.name !== target.name && !drop.includes(col.name) && isText(col, k));
  const modality: Modality =
    h.modality ??
    (fileCol
      ? "image"
      : text
        ? "text"
        : p.kind === "ts" || (split.kind === "time" && taskType === "regression")
          ? "time_series"
          : "tabular");
  // 9. naming; the generated id column must not collide with a column of the table.
  const idColumn = freshIdColumn(p.columns.map((col) => col.name));
  const how =
    split.kind === "time"
      ? ` The test set is the latest ${Math.round(split.testSize * 100)}% by ${split.timeColumn}.`
      : split.kind === "group"
        ? ` Test rows come from ${split.groupColumn} values never seen in training.`
        : "";
  const what = taskType === "classification" ? `the class ${target.name}` : `the value of ${target.name}`;
  const spec: Omit<TaskSpecInput, "table" | "filesDir"> = {
    id: taskId,
    name: `${c.description} (${target.name})`,
    description: `${c.description}. Predict ${what} from the other columns.${how}`,
    modality,
    ...(fileCol ? { fileColumn: fileCol } : {}),
    target: target.name,
    idColumn,
    drop,
    metric,
    split,
    // 8. size
    ...(p.nRows > k.maxRows ? { maxRows: k.maxRows } : {}),
    source: `${c.package} ${c.version}: ${c.object}`,
    licence: c.licence,
  };
  return { taskId, candidate: c.id, taskType, spec };
}

function isNumeric(col: ColumnProfile): boolean {
  return col.type === "numeric" || col.type === "integer";
}

export function isText(col: ColumnProfile, k: FramingConfig): boolean {
  return (col.type === "text" || col.type === "categorical") && (col.meanWords ?? 0) >= k.textWords;
}

/** Unique per row and not a measurement (floats unique per row are measurements), or a row-name column. */
export function isIdLike(col: ColumnProfile, nRows: number): boolean {
  const unique = col.nUnique >= nRows - col.nMissing && nRows > 1;
  // A row-name column (R's write.csv "X", "rownames"): by name, when it also looks like one.
  if (ID_NAMES.has(col.name.toLowerCase()) && (unique || col.monotone)) return true;
  return unique && (col.type === "integer" || col.type === "categorical");
}

function isClassLike(col: ColumnProfile, k: FramingConfig, hinted: boolean): boolean {
  const levels = col.nUnique >= 2 && col.nUnique <= k.maxClasses;
  if (!levels) return false;
  if (col.type === "integer") return hinted || nameScore(col.name, CLASS_NAMES) > 0;
  if (col.type !== "categorical" || (col.meanWords ?? 1) >= k.textWords) return false;
  if (hinted) return true;
  return col.topShare <= k.maxTopShare && (1 - col.topShare) / (col.nUnique - 1) >= k.minClassShare;
}

function isValueLike(col: ColumnProfile, k: FramingConfig): boolean {
  return isNumeric(col) && col.nUnique >= k.minDistinct && !col.monotone && nameScore(col.name, TIME_WORDS) === 0;
}

/** A datetime column, else a monotone column with a time word in its name. */
function timeColumn(p: TableProfile): string | undefined {
  if (p.kind === "ts") return "time";
  const dt = p.columns.find((col) => col.type === "datetime");
  if (dt) return dt.name;
  return p.columns.find((col) => col.monotone && nameScore(col.name, ["year", "date", "time"]) > 0)?.name;
}

/** A subject-like column repeated over rows, with enough groups (or the hinted one). */
function groupColumn(p: TableProfile, k: FramingConfig, hinted: string | undefined): string | undefined {
  if (hinted) return hinted;
  return p.columns.find(
    (col) =>
      col.type !== "numeric" &&
      nameScore(col.name, GROUP_WORDS) > 0 &&
      col.nUnique >= k.minGroups &&
      col.nUnique <= k.groupMaxShare * p.nRows,
  )?.name;
}

/** The column with the best response-like name (2 exact, 1 a word of it), ties to the later column. */
function best(cols: ColumnProfile[], names: readonly string[]): ColumnProfile | undefined {
  let out: ColumnProfile | undefined;
  let score = -1;
  for (const col of cols) {
    const s = nameScore(col.name, names);
    if (s >= score) [out, score] = [col, s];
  }
  return out;
}

/** 2 when the lower-cased name is one of `names`, 1 when one of its words is (or its singular), else 0. */
export function nameScore(name: string, names: readonly string[]): number {
  const n = name.toLowerCase();
  if (names.includes(n)) return 2;
  const words = n.split(/[^a-z0-9]+|(?<=[a-z])(?=[0-9])/);
  return words.some((w) => names.includes(w) || (w.endsWith("s") && names.includes(w.slice(0, -1)))) ? 1 : 0;
}

export function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Folder-safe form of a column name: lower case, runs of other characters to '-'. */
export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9_.]+/g, "-")
      .replace(/^[-_.]+|-+$/g, "") || "target"
  );
}

/** 32-bit FNV-1a hash of a string: the split seed of a task, stable across machines and runs. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}
