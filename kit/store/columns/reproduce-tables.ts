import { col, type TableDoc } from "./table-doc.js";

/** kit/reproduce's table: the finished cells of the paper's search experiments (issue 31). */
export const REPRODUCE_TABLES: readonly TableDoc[] = [
  {
    table: "reproduce_cells",
    owner: "reproduce",
    description:
      "One finished cell (arm × task × repeat) of a search experiment of `openmle reproduce`: its evolve run and " +
      "the champion's hidden test score normalised against kit/eval's baselines (kit/reproduce/run-search.ts, " +
      "written by cell-store.ts), so its tables lay out again from the workspace alone (no task packages).",
    columns: [
      col(
        "experiment",
        "VARCHAR",
        "The experiment id (openmle reproduce --list); with preset, arm, task_id and repeat the key.",
      ),
      col("preset", "VARCHAR", "smoke | laptop | paper."),
      col("arm", "VARCHAR", "The arm id of the experiment's preset."),
      col("task_id", "VARCHAR", "The task of the cell."),
      col("repeat", "INTEGER", "1…k; also the run's seed."),
      col("run_id", "VARCHAR", "The cell's evolve run (runs.run_id): rp-<experiment>-<preset>-<arm>-<task>-r<repeat>."),
      col("modality", "VARCHAR", "The task's modality (tabular, text, time_series, …)."),
      col("higher_is_better", "BOOLEAN", "The task metric's direction."),
      col("valid_rate", "DOUBLE", "Share of the run's nodes that succeeded with a validation score."),
      col("test_score", "DOUBLE", "The run champion's hidden test score (metric units); null without a champion."),
      col("reference", "DOUBLE", "kit/eval's reference baseline's hidden test score on the task; null without one."),
      col(
        "normalisable",
        "BOOLEAN",
        "The task has trivial and reference baselines and the reference beats the trivial one (erl normalisableTasks).",
      ),
      col(
        "normalized",
        "DOUBLE",
        "(test − trivial) / (reference − trivial), oriented; null without a champion or when not normalisable.",
      ),
      col(
        "grade",
        "VARCHAR",
        "gold | silver | bronze | none: the champion's test score on the task's MLE-bench leaderboard (kit/eval " +
          "gradeScore); null when the task has none (corpus and built-in tasks).",
      ),
      col(
        "human_rank",
        "DOUBLE",
        "The champion's Human Rank on that leaderboard (0 without a champion); null without one.",
      ),
      col("recorded_at", "TIMESTAMP", "When the row was written (UTC)."),
    ],
  },
];
