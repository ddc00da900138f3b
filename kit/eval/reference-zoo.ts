import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { METRICS, type MetricDef, type OutputKind, type TaskPackage } from "../gym/index.js";
import { ZOO_MAIN, ZOO_RUNNER, ZOO_THREADS } from "./reference-zoo-program.js";
import { featureCode } from "./run-baselines.js";

/**
 * The reference zoo: a fixed population of standard pipelines (a constant, linear models, nearest neighbours,
 * trees, forests, boosting, kernels, naive Bayes, a small MLP) at default and commonly tuned settings, run on a
 * task the same way for every task, so that their hidden-test scores make a leaderboard for tasks that have none
 * (corpus-leaderboards.ts). It is the kit's construction, not the paper's: the paper grades against the real
 * Kaggle leaderboards of MLE-bench. No entry is a policy under test: the zoo is fixed, versioned (ZOO_VERSION)
 * and hashed (zooHash: the program text it writes), and a leaderboard records the hash it was built with.
 *
 * Bump ZOO_VERSION when an entry is added, removed or changed; the hash changes by itself with any change of the
 * program text (entries, features, runner, settings), so stale leaderboards are rebuilt either way.
 */
export const ZOO_VERSION = 1;

/** Which features an entry is fit on (see reference-zoo-program.ts ZOO_RUNNER, step 1). */
export type ZooView = "none" | "dense" | "all" | "nb";

/** A size rule decided from the data's shape alone (so the same package skips the same entries). */
export type ZooRule = "kernel" | "boost" | null;

/** One entry: its name (the leaderboard's teamId), family, features, and Python constructors. */
export interface ZooEntry {
  readonly name: string;
  readonly family: string;
  readonly view: ZooView;
  /** Python expression building the classifier (labels and probabilities), or null: no entry for classification. */
  readonly classifier: string | null;
  /** Python expression building the regressor ("value" outputs), or null: no entry for regression. */
  readonly regressor: string | null;
  readonly rule: ZooRule;
}

const e = (
  name: string,
  family: string,
  view: ZooView,
  classifier: string | null,
  regressor: string | null,
  rule: ZooRule = null,
): ZooEntry => ({ name, family, view, classifier, regressor, rule });
const FOREST = "random_state=SEED, n_jobs=1";
const XGB = "random_state=SEED, n_jobs=1, tree_method='hist'";
const MLP = "hidden_layer_sizes=(100,), max_iter=300, early_stopping=True, random_state=SEED";
const SVC = "probability=PROBA, random_state=SEED";
const XGB_TUNED = "n_estimators=400, learning_rate=0.05, max_depth=4, subsample=0.8, colsample_bytree=0.8";
const HGB_LEAVES63 = "max_leaf_nodes=63, min_samples_leaf=10, l2_regularization=1.0, random_state=SEED";

/**
 * The entries, in the order they run. SEED is the config's seed; PROBA is true when the metric scores
 * probabilities (so SVC calibrates them); CONST is "median" for mae/rmsle, else "mean"; HAS_TEXT is whether the
 * task has text columns; scaled(m) standardises a regressor's target (kernels and the MLP).
 * linear-cX: LogisticRegression(C=X) or Ridge(alpha=1/X), on every feature (full TF-IDF included).
 */
export const ZOO_ENTRIES: readonly ZooEntry[] = [
  e("constant", "constant", "none", "DummyClassifier(strategy='prior')", "DummyRegressor(strategy=CONST)"),
  e("linear-c0.1", "linear", "all", "LogisticRegression(C=0.1, max_iter=1000)", "Ridge(alpha=10.0)"),
  e("linear-c1", "linear", "all", "LogisticRegression(C=1.0, max_iter=1000)", "Ridge(alpha=1.0)"),
  e("linear-c10", "linear", "all", "LogisticRegression(C=10.0, max_iter=1000)", "Ridge(alpha=0.1)"),
  e("knn-5", "knn", "dense", "KNeighborsClassifier(n_neighbors=5)", "KNeighborsRegressor(n_neighbors=5)"),
  e(
    "knn-15-distance",
    "knn",
    "dense",
    "KNeighborsClassifier(n_neighbors=15, weights='distance')",
    "KNeighborsRegressor(n_neighbors=15, weights='distance')",
  ),
  e(
    "tree-d4",
    "tree",
    "dense",
    "DecisionTreeClassifier(max_depth=4, random_state=SEED)",
    "DecisionTreeRegressor(max_depth=4, random_state=SEED)",
  ),
  e(
    "tree-d10-leaf5",
    "tree",
    "dense",
    "DecisionTreeClassifier(max_depth=10, min_samples_leaf=5, random_state=SEED)",
    "DecisionTreeRegressor(max_depth=10, min_samples_leaf=5, random_state=SEED)",
  ),
  e(
    "rf-100",
    "random forest",
    "dense",
    `RandomForestClassifier(n_estimators=100, ${FOREST})`,
    `RandomForestRegressor(n_estimators=100, ${FOREST})`,
  ),
  e(
    "rf-300",
    "random forest",
    "dense",
    `RandomForestClassifier(n_estimators=300, ${FOREST})`,
    `RandomForestRegressor(n_estimators=300, ${FOREST})`,
  ),
  e(
    "rf-300-leaf5",
    "random forest",
    "dense",
    `RandomForestClassifier(n_estimators=300, min_samples_leaf=5, ${FOREST})`,
    `RandomForestRegressor(n_estimators=300, min_samples_leaf=5, ${FOREST})`,
  ),
  e(
    "extra-trees-300",
    "extra trees",
    "dense",
    `ExtraTreesClassifier(n_estimators=300, ${FOREST})`,
    `ExtraTreesRegressor(n_estimators=300, ${FOREST})`,
  ),
  e(
    "extra-trees-300-leaf3",
    "extra trees",
    "dense",
    `ExtraTreesClassifier(n_estimators=300, min_samples_leaf=3, ${FOREST})`,
    `ExtraTreesRegressor(n_estimators=300, min_samples_leaf=3, ${FOREST})`,
  ),
  e(
    "hgb-default",
    "hist gradient boosting",
    "dense",
    "HistGradientBoostingClassifier(random_state=SEED)",
    "HistGradientBoostingRegressor(random_state=SEED)",
  ),
  e(
    "hgb-lr0.05-leaves15",
    "hist gradient boosting",
    "dense",
    "HistGradientBoostingClassifier(learning_rate=0.05, max_iter=300, max_leaf_nodes=15, random_state=SEED)",
    "HistGradientBoostingRegressor(learning_rate=0.05, max_iter=300, max_leaf_nodes=15, random_state=SEED)",
    "boost",
  ),
  e(
    "hgb-leaves63-l2",
    "hist gradient boosting",
    "dense",
    `HistGradientBoostingClassifier(${HGB_LEAVES63})`,
    `HistGradientBoostingRegressor(${HGB_LEAVES63})`,
    "boost",
  ),
  e(
    "hgb-depth3-lr0.2",
    "hist gradient boosting",
    "dense",
    "HistGradientBoostingClassifier(learning_rate=0.2, max_depth=3, max_iter=150, random_state=SEED)",
    "HistGradientBoostingRegressor(learning_rate=0.2, max_depth=3, max_iter=150, random_state=SEED)",
  ),
  e(
    "gbm-100",
    "gradient boosting",
    "dense",
    "GradientBoostingClassifier(random_state=SEED)",
    "GradientBoostingRegressor(random_state=SEED)",
    "boost",
  ),
  e("xgb-default", "xgboost", "dense", `xgboost().XGBClassifier(${XGB})`, `xgboost().XGBRegressor(${XGB})`, "boost"),
  e(
    "xgb-d4-lr0.05-400",
    "xgboost",
    "dense",
    `xgboost().XGBClassifier(${XGB_TUNED}, ${XGB})`,
    `xgboost().XGBRegressor(${XGB_TUNED}, ${XGB})`,
    "boost",
  ),
  e("svm-rbf-c1", "svm", "dense", `SVC(C=1.0, ${SVC})`, "scaled(SVR(C=1.0))", "kernel"),
  e("svm-rbf-c10", "svm", "dense", `SVC(C=10.0, ${SVC})`, "scaled(SVR(C=10.0))", "kernel"),
  e("naive-bayes", "naive bayes", "nb", "MultinomialNB(alpha=0.1) if HAS_TEXT else GaussianNB()", null),
  e("mlp-100", "mlp", "dense", `MLPClassifier(${MLP})`, `scaled(MLPRegressor(${MLP}))`),
  e(
    "adaboost-50",
    "adaboost",
    "dense",
    "AdaBoostClassifier(random_state=SEED)",
    "AdaBoostRegressor(random_state=SEED)",
  ),
];

/** Settings of the zoo's program; they are part of its text, so of zooHash. */
export const ReferenceZooConfig = z
  .object({
    /** random_state of every entry (and of the TF-IDF SVD). */
    seed: z.number().int().min(0).default(0).describe("random_state of every entry and of the TF-IDF SVD"),
    /** Wall-clock cap of one entry's fit and prediction; past it the entry is killed and recorded as timeout. */
    entryTimeoutS: z.number().positive().default(60).describe("Seconds one entry may take; past it: timeout"),
    /** SVM entries apply only up to this many train rows (kernel fits grow with the square of the rows). */
    maxKernelRows: z.number().int().positive().default(5000).describe("SVM entries only up to this many train rows"),
    /**
     * The slower boosting entries (gbm, xgboost, two of the tuned HistGradientBoosting) apply only while
     * train rows × dense features × class trees (classes when more than 2, else 1) stay at or below this.
     */
    maxBoostWork: z
      .number()
      .positive()
      .default(2e6)
      .describe("Slow boosting entries only while rows x features x class trees <= this"),
    /** Side of the grey pixel grid an image file becomes (side² features). */
    pixels: z.number().int().min(4).max(64).default(16).describe("Image files become side x side grey pixels"),
    /** Components of the TruncatedSVD of the TF-IDF block in the dense view. */
    svdComponents: z.number().int().min(1).max(512).default(64).describe("TruncatedSVD components of TF-IDF"),
  })
  .strict();
export type ReferenceZooConfig = z.infer<typeof ReferenceZooConfig>;
export type ReferenceZooConfigInput = z.input<typeof ReferenceZooConfig>;

/**
 * The submission's shape: utils/prepare_config.json's `output` (a built package's), else the registry's for
 * `metricKind ?? metric`, else one column per class → proba_multi, classification → label, else value.
 */
export function zooOutput(task: TaskPackage): OutputKind {
  const cfg = preparedConfig(task);
  if (typeof cfg.output === "string") return cfg.output as OutputKind;
  const def = (METRICS as Record<string, MetricDef>)[task.meta.metricKind ?? task.meta.metric];
  if (def) return def.output;
  if (task.meta.targetColumns.length > 1) return "proba_multi";
  return task.meta.taskType === "classification" ? "label" : "value";
}

function preparedConfig(task: TaskPackage): { output?: unknown; k?: unknown } {
  const file = join(task.dir, "utils", "prepare_config.json");
  if (!task.dir || !existsSync(file)) return {};
  try {
    const v = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return v && typeof v === "object" ? (v as { output?: unknown; k?: unknown }) : {};
  } catch {
    return {};
  }
}

const pyEntry = (x: ZooEntry) =>
  `    (${JSON.stringify(x.name)}, ${JSON.stringify(x.view)}, ` +
  `${x.classifier ? `lambda: ${x.classifier}` : "None"}, ${x.regressor ? `lambda: ${x.regressor}` : "None"}, ` +
  `${x.rule ? JSON.stringify(x.rule) : "None"}),`;

/**
 * The zoo's one program for `task` (Python, run in the sandbox like any candidate): thread pins, the shared
 * feature code (run-baselines.ts featureCode), the zoo's settings as JSON, the runner, the entries, the loop.
 * It writes submissions/<entry>.csv per entry that succeeded, zoo_status.json, and submission.csv (a copy of the
 * first entry that succeeded).
 */
export function zooProgram(task: TaskPackage, config: ReferenceZooConfigInput = {}): string {
  const cfg = ReferenceZooConfig.parse(config);
  const k = preparedConfig(task).k;
  const zoo = {
    version: ZOO_VERSION,
    output: zooOutput(task),
    metric: task.meta.metricKind ?? task.meta.metric,
    k: typeof k === "number" && Number.isInteger(k) && k > 0 ? k : 3,
    paths: (task.meta.columns ?? []).filter((c) => c.kind === "path").map((c) => c.name),
    seed: cfg.seed,
    entry_timeout_s: cfg.entryTimeoutS,
    max_kernel_rows: cfg.maxKernelRows,
    max_boost_work: cfg.maxBoostWork,
    pixels: cfg.pixels,
    svd: cfg.svdComponents,
  };
  return (
    `${ZOO_THREADS}${featureCode(task)}ZOO = json.loads(${JSON.stringify(JSON.stringify(zoo))})\n${ZOO_RUNNER}\n` +
    `ENTRIES = [\n${ZOO_ENTRIES.map(pyEntry).join("\n")}\n]\n${ZOO_MAIN}`
  );
}

/** Two made-up tasks (tabular with text, audio) whose programs together hold every part of the zoo's text. */
const CANONICAL: readonly TaskPackage[] = (["tabular", "audio"] as const).map((modality) => ({
  dir: "",
  publicDir: "",
  privateDir: "",
  description: "",
  meta: {
    id: "zoo-canonical",
    name: "zoo-canonical",
    modality,
    taskType: "classification",
    idColumn: "id",
    targetColumns: ["y"],
    trainTarget: "y",
    metric: "accuracy",
    higherIsBetter: true,
    files: { train: "train.csv", test: "test.csv", sampleSubmission: "sample_submission.csv" },
    columns: [{ name: "t", kind: "text", missingShare: 0, unique: 2 }],
  },
}));

/**
 * The zoo's content hash (sha256, first 16 hex digits) over ZOO_VERSION and the programs it writes for two
 * made-up tasks (tabular with a text column, audio), under `config`: any change to an entry, the runner, the
 * shared feature code or a setting changes it.
 */
export function zooHash(config: ReferenceZooConfigInput = {}): string {
  const h = createHash("sha256").update(`openmle-reference-zoo\0${ZOO_VERSION}\0`);
  for (const t of CANONICAL) h.update(zooProgram(t, config)).update("\0");
  return h.digest("hex").slice(0, 16);
}
