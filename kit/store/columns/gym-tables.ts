import { col, createdAt, type TableDoc } from "./table-doc.js";

/** kit/gym's tables: task packages as runs name them, and their reviews (kit/gym/task-store.ts). */
export const GYM_TABLES: readonly TableDoc[] = [
  {
    table: "tasks",
    owner: "gym",
    description:
      "One row per task package a command used: kit/gym/record-review.ts recordTaskReview replaces the row of " +
      "its id (evolve does so at the start of every run).",
    columns: [
      col("task_id", "VARCHAR", "The task's id (task.json `id`, e.g. 'cars'); primary key; runs.task_id refers to it."),
      col("name", "VARCHAR", "The task's human name (task.json `name`)."),
      col(
        "modality",
        "VARCHAR",
        "tabular | image | text | time_series | audio | multimodal | other (TaskMeta.modality); kit/eval groups " +
          "Valid Rate and medals by it.",
      ),
      col("task_type", "VARCHAR", "classification | regression | ranking | other (TaskMeta.taskType)."),
      col("metric", "VARCHAR", "The metric's name as the package states it (TaskMeta.metric, e.g. 'rmse')."),
      col(
        "higher_is_better",
        "BOOLEAN",
        "The metric's direction: true when a larger score is better. nodes.fitness is valid_score when true, " +
          "−valid_score when false.",
      ),
      col("dir", "VARCHAR", "Absolute folder the package was loaded from on the machine that wrote the row."),
      col(
        "source",
        "VARCHAR",
        "Where the raw data comes from, free text (TaskMeta.source, e.g. 'MLE-bench competition <id>'); null " +
          "when unsaid.",
      ),
      col("spec", "JSON", "The package's whole TaskMeta (task.json, camelCase keys) as JSON text."),
      createdAt("the task row"),
    ],
  },
  {
    table: "task_reviews",
    owner: "gym",
    description:
      "Reviews of a task package: the deterministic quality checks and the LLM semantic gate, appended by " +
      "kit/gym/record-review.ts recordTaskReview (`openmle task check --workspace DIR`).",
    columns: [
      col("review_id", "VARCHAR", "`<task_id>-<kind>-<8 hex>`, random per review; primary key."),
      col("task_id", "VARCHAR", "The reviewed task (tasks.task_id)."),
      col("kind", "VARCHAR", "'quality' (deterministic checks, kit/gym) or 'semantic' (the LLM gate)."),
      col(
        "verdict",
        "VARCHAR",
        "'pass' | 'fail' for quality; the gate's recommended | conditional | rejected | skipped | unparseable " +
          "for semantic.",
      ),
      col(
        "accepted",
        "BOOLEAN",
        "Whether the review lets the task be used: quality = checks passed and the metric is valid; semantic = " +
          "the gate accepted it.",
      ),
      col("report", "JSON", "The whole QualityReport or SemanticReview (camelCase keys) as JSON text."),
      createdAt("the review"),
    ],
  },
];
