import { col, createdAt, type TableDoc } from "./table-doc.js";

const HASH = "configHash(config): 16 hex digits, equal for configs that differ only in paths/names.";

/** kit/erl's tables of datasets, checkpoints and the closed loop (sft/dataset-store.ts, checkpoint-store.ts, loop/). */
export const ERL_TABLES: readonly TableDoc[] = [
  {
    table: "datasets",
    owner: "erl",
    description:
      "One row per training example of a named dataset: collectSft stores a dataset's examples in one " +
      "transaction (kit/erl/sft/dataset-store.ts saveDataset).",
    columns: [
      col("example_id", "VARCHAR", "`<dataset>/<index, 5 digits>`; primary key."),
      col("dataset", "VARCHAR", "The dataset's name (`--dataset`)."),
      col(
        "kind",
        "VARCHAR",
        "'sft' for every example the kit writes today; 'rl' is reserved (rollouts live in rl_rollouts).",
      ),
      col("task_id", "VARCHAR", "The task the example's program was written for."),
      col("operator", "VARCHAR", "draft | improve | debug | crossover: the operator the example teaches."),
      col("messages", "JSON", "The chat: system + user (the LLM policy's prompt) and assistant (plan + program)."),
      col("program", "VARCHAR", "The example's program (the assistant's code)."),
      col(
        "score",
        "DOUBLE",
        "The program's validation score as printed (metric units and direction, not signed); null when it did " +
          "not score.",
      ),
      col("weight", "DOUBLE", "The example's training weight: 1 for every example saveDataset writes."),
      col("reward", "DOUBLE", "Reserved for RL examples; null in every row the kit writes today."),
      col("advantage", "DOUBLE", "Reserved for RL examples; null in every row the kit writes today."),
      col("source_run", "VARCHAR", "The evolve run it came from (evolutionary path); null for parallel drafts."),
      col(
        "meta",
        "JSON",
        "{path: parallel | evolution, teacher, source_node, tokens, judge, judge_reason, config_hash, config, " +
          "parallel, choices}: how the example and its dataset were made.",
      ),
      createdAt("the example"),
    ],
  },
  {
    table: "policy_checkpoints",
    owner: "erl",
    description:
      "Named, versioned grammar-policy params (kit/erl/checkpoints.ts saveCheckpoint through checkpoint-store.ts): " +
      "written by SFT, each RL step, the end of an RL run and each loop generation.",
    columns: [
      col("name", "VARCHAR", "The checkpoint's name, e.g. 'sft-1', '<to>-step4'; primary key ('default' is built in)."),
      col("policy", "VARCHAR", "'grammar' (the params below); other kinds are reserved."),
      col("format_version", "INTEGER", "The params' format version (GrammarParams.version)."),
      col("kit_version", "VARCHAR", "package.json version of the kit that wrote it; loading checks its major part."),
      col("parent", "VARCHAR", "The checkpoint it was trained from ('default' for the built-in params)."),
      col("source", "VARCHAR", "What wrote it: sft | rl | loop ('import' is reserved for imported params files)."),
      col("dataset", "VARCHAR", "What it was trained on: the dataset's name (sft, loop) or the RL run's id (rl)."),
      col("params", "JSON", "The grammar params (paramsToJson), exactly what loads."),
      col("config", "JSON", "The training config that produced it (SFT config, RlConfig, or the loop's lineage)."),
      col("config_hash", "VARCHAR", HASH),
      col(
        "metrics",
        "JSON",
        "Training metrics: SFT log-likelihoods and skipped examples, an RL step's metrics, {steps}…",
      ),
      col("created_at", "TIMESTAMP", "When saveCheckpoint wrote it (UTC)."),
    ],
  },
  {
    table: "loops",
    owner: "erl",
    description:
      "One row per closed loop (evolve → collectSft → SFT → trainRL → checkpoint): kit/erl/loop/open-loop.ts " +
      "inserts it through the store's run lifecycle, kit/erl/loop/loop.ts ends it.",
    columns: [
      col("loop_id", "VARCHAR", "The loop's id; primary key."),
      col("train_tasks", "JSON", "The training task ids, a JSON array."),
      col("heldout_tasks", "JSON", "The held-out task ids, a JSON array (disjoint from the training ones)."),
      col("config", "JSON", "The whole parsed LoopConfig (camelCase keys) as JSON text."),
      col("config_hash", "VARCHAR", HASH),
      col("status", "VARCHAR", "running | finished | failed."),
      col("started_at", "TIMESTAMP", "When the loop was first inserted (UTC)."),
      col("ended_at", "TIMESTAMP", "When it last ended (UTC); null while running."),
    ],
  },
  {
    table: "loop_stages",
    owner: "erl",
    description:
      "One row per stage of a loop generation, replaced as it starts and ends (kit/erl/loop/loop-store.ts " +
      "markStage); a resumed loop skips the stages that are done.",
    columns: [
      col("loop_id", "VARCHAR", "The loop (loops.loop_id); (loop_id, generation, stage) is the primary key."),
      col("generation", "INTEGER", "The generation k (0-based; −1 for the loop-wide baselines stage)."),
      col("stage", "VARCHAR", "heldout | evolve | collect | sft | rl | checkpoint, or baselines."),
      col("status", "VARCHAR", "running | done."),
      col(
        "result",
        "JSON",
        "The stage's result (run ids, dataset, checkpoint, scores…) once done; null while running.",
      ),
      col("started_at", "TIMESTAMP", "When the stage first started (UTC; kept when it is marked done)."),
      col("ended_at", "TIMESTAMP", "When it was marked done (UTC); null while running."),
    ],
  },
  {
    table: "loop_heldout",
    owner: "erl",
    description:
      "One row per held-out evolve run of a generation's checkpoint (kit/erl/loop/heldout-eval.ts evaluateHeldout, " +
      "written by heldout-store.ts replaceHeldout).",
    columns: [
      col("loop_id", "VARCHAR", "The loop; (loop_id, generation, task_id, seed) is the primary key."),
      col("generation", "INTEGER", "The generation k whose checkpoint was evaluated."),
      col("checkpoint", "VARCHAR", "The policy checkpoint evaluated ('default' for the built-in params)."),
      col("task_id", "VARCHAR", "The held-out task."),
      col("seed", "INTEGER", "The evolve seed of the run."),
      col("run_id", "VARCHAR", "The evolve run (runs.run_id), `<loop>-h<k>-<task>-s<seed>`."),
      col("valid_score", "DOUBLE", "The run's champion's validation score (metric units and direction, not signed)."),
      col("test_score", "DOUBLE", "The run's champion's hidden test score (metric units and direction)."),
      col("valid_rate", "DOUBLE", "Share in [0, 1] of the run's nodes that ran and scored."),
      col(
        "mean_draft_score",
        "DOUBLE",
        "Mean validation score of the run's successful drafts (metric units, not signed).",
      ),
      col(
        "trivial",
        "DOUBLE",
        "The trivial baseline's test score for the task (a constant prediction); null without one.",
      ),
      col("reference", "DOUBLE", "The reference baseline's test score (a fixed simple model); null without one."),
      col(
        "normalized",
        "DOUBLE",
        "(test − trivial) / (reference − trivial): 0 = trivial, 1 = reference, > 1 better; null without " +
          "baselines or when the reference does not beat the trivial one.",
      ),
    ],
  },
  {
    table: "loop_heldout_drafts",
    owner: "erl",
    description:
      "The policy-level held-out measure: one row per fresh Draft of a generation's checkpoint on a held-out task " +
      "(kit/erl/loop/heldout-drafts.ts, written by heldout-drafts-store.ts).",
    columns: [
      col("loop_id", "VARCHAR", "The loop; (loop_id, generation, task_id, draft) is the primary key."),
      col("generation", "INTEGER", "The generation k whose checkpoint drafted."),
      col("checkpoint", "VARCHAR", "The policy checkpoint ('uniform', 'default' or a checkpoint name)."),
      col("task_id", "VARCHAR", "The held-out task."),
      col("draft", "INTEGER", "0-based draft index; its draw's seed is the same for every generation."),
      col("status", "VARCHAR", "The sandbox feedback mode (success, runtime_error, timeout, …)."),
      col("valid_score", "DOUBLE", "The printed validation score (metric units and direction); null on failure."),
      col("test_score", "DOUBLE", "The hidden test score (metric units and direction); null on failure."),
      col(
        "normalized",
        "DOUBLE",
        "(test − trivial) / (reference − trivial); null on failure, without baselines or when the reference " +
          "does not beat the trivial one.",
      ),
      col("sandbox_s", "DOUBLE", "Wall seconds of the program in the sandbox."),
      col("recorded_at", "TIMESTAMP", "When the row was written (UTC)."),
    ],
  },
];
