import { col, type TableDoc } from "./table-doc.js";

/** kit/experiment's tables: registered experiments, their runs, their cells and every read of results (issue 60). */
export const EXPERIMENT_TABLES: readonly TableDoc[] = [
  {
    table: "experiments",
    owner: "experiment",
    description:
      "One registration of an experiment plan (`openmle experiment register`; kit/experiment/register-experiment.ts " +
      "through experiment-store.ts): the plan as resolved then, its hash and the power line. A changed plan is a " +
      "new registration; the same plan registered again is the same row.",
    columns: [
      col("registration_id", "VARCHAR", "exp-<the plan hash's first 12 hex digits>; primary key."),
      col("name", "VARCHAR", "The plan's name."),
      col("question", "VARCHAR", "The question the plan answers, in words."),
      col(
        "plan",
        "JSON",
        "The resolved plan (kit/experiment ResolvedPlan, camelCase keys): arms with their params or checkpoint " +
          "hashes and training tasks, task ids with package hashes and studies, level, seed, measures, decision " +
          "rule, limits, the kit's commit.",
      ),
      col("plan_hash", "VARCHAR", "sha256 (hex) of the resolved plan's canonical JSON, task folders left out."),
      col("kit_commit", "VARCHAR", "The kit's git commit at registration ('unknown' outside a checkout)."),
      col("registered_at", "TIMESTAMP", "When it was registered (UTC)."),
      col("label", "VARCHAR", "registered (the plan names a sealed confirm task) | exploratory (it names none)."),
      col(
        "power_line",
        "VARCHAR",
        "The smallest effect the design detects at 80 % power from the dev suite's rows, or why there is none.",
      ),
      col("warnings", "JSON", "A JSON array of what registration warned about (arms whose training is unknown)."),
    ],
  },
  {
    table: "experiment_runs",
    owner: "experiment",
    description:
      "One run of a registration (`openmle experiment run`; kit/experiment/run-experiment.ts): resumed while not " +
      "completed, a new run after a completed one. The first completed run is the registered result.",
    columns: [
      col("run_id", "VARCHAR", "<registration_id>-r<run_number>; primary key."),
      col("registration_id", "VARCHAR", "The registration it runs (experiments.registration_id)."),
      col("run_number", "INTEGER", "1, 2, …: the order of the registration's runs."),
      col("kit_commit", "VARCHAR", "The kit's git commit this run started with (compare with the registration's)."),
      col("started_at", "TIMESTAMP", "When it was first started (UTC)."),
      col("finished_at", "TIMESTAMP", "When it completed or failed (UTC); null while running."),
      col("status", "VARCHAR", "running | completed | failed (a killed run stays running until resumed)."),
      col(
        "is_registered_result",
        "BOOLEAN",
        "True for the registration's first completed run only: THE registered result; re-runs are false.",
      ),
      col(
        "summary",
        "JSON",
        "{baselines (per task trivial and reference test scores), measures (per arm), verdict (the decision " +
          "rule's interval and outcome)}; baselines only while running.",
      ),
      col("error", "VARCHAR", "The error a failed run ended with; null otherwise."),
    ],
  },
  {
    table: "experiment_results",
    owner: "experiment",
    description:
      "One cell (arm × task × draw or seed) of an experiment run: a fresh Draft (drafts level) or an evolve run's " +
      "champion (search level), executed and graded on the hidden test (kit/experiment/run-experiment.ts). A run " +
      "resumes by skipping the cells it has.",
    columns: [
      col("run_id", "VARCHAR", "The experiment run (experiment_runs.run_id); with arm, task_id, draw_or_seed the key."),
      col("arm", "VARCHAR", "The arm's name in the plan."),
      col("task_id", "VARCHAR", "The task of the cell."),
      col(
        "draw_or_seed",
        "INTEGER",
        "Drafts: the draw index i (seeded keyedSeed(plan seed, '<task>#<i>'), the same for every arm); " +
          "search: the seed.",
      ),
      col(
        "status",
        "VARCHAR",
        "Drafts: the sandbox feedback mode; search: the evolve run's stop reason (steps | wall-time | sandbox-time).",
      ),
      col("valid", "BOOLEAN", "A graded hidden test score exists (drafts: the program's; search: the champion's)."),
      col("valid_score", "DOUBLE", "The validation score (metric units); null when not valid."),
      col("test_score", "DOUBLE", "The hidden test score (metric units); null when not valid."),
      col(
        "normalisable",
        "BOOLEAN",
        "The task has trivial and reference baselines and the reference beats the trivial one.",
      ),
      col(
        "normalized",
        "DOUBLE",
        "(test − trivial) / (reference − trivial), oriented; null when not valid or not normalisable.",
      ),
      col(
        "medal",
        "VARCHAR",
        "gold | silver | bronze | none on the task's leaderboard (MLE-bench Lite or corpus); null without one.",
      ),
      col("human_rank", "DOUBLE", "Human Rank on that leaderboard (0 when not valid); null without one."),
      col("valid_rate", "DOUBLE", "Search: the run's share of nodes that scored; drafts: null."),
      col("evolve_run_id", "VARCHAR", "Search: the evolve run (runs.run_id); drafts: null."),
      col("sandbox_s", "DOUBLE", "Sandbox seconds: the program's (drafts), the whole evolve run's (search)."),
      col("recorded_at", "TIMESTAMP", "When the row was written (UTC)."),
    ],
  },
  {
    table: "experiment_looks",
    owner: "experiment",
    description:
      "Every read of an experiment's results (`openmle experiment show`), appended before they are shown: the " +
      "history of looks `openmle experiment list` counts.",
    columns: [
      col("registration_id", "VARCHAR", "The registration whose results were read."),
      col("looked_at", "TIMESTAMP", "When the results were read (UTC)."),
      col("command", "VARCHAR", "The command line that read them."),
      col("what", "VARCHAR", "What was read, e.g. 'results of run exp-…-r1 (registered result)'."),
    ],
  },
];
