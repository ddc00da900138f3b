import { col, createdAt, type TableDoc } from "./table-doc.js";

const RUN = col("run_id", "VARCHAR", "The trainRL run (rl_runs.run_id).");

/** kit/erl/rl's tables: trainRL's runs and, per step, its groups, rollouts and parent store (rl/rl-store.ts). */
export const ERL_RL_TABLES: readonly TableDoc[] = [
  {
    table: "rl_runs",
    owner: "erl",
    description:
      "One row per trainRL run: inserted `running` by kit/erl/rl/open-rl-run.ts (the store's run lifecycle), " +
      "ended by kit/erl/rl/train-rl.ts (endRun).",
    columns: [
      col(
        "run_id",
        "VARCHAR",
        "The run's id; primary key; per-step checkpoints name it in policy_checkpoints.dataset.",
      ),
      col("tasks", "JSON", "The task ids trained on, a JSON array."),
      col("from_checkpoint", "VARCHAR", "The starting params: 'default', a checkpoint name or a params file."),
      col("to_name", "VARCHAR", "The final checkpoint's name; step k's checkpoint is `<to_name>-step<k>`."),
      col("mode", "VARCHAR", "async | sync: whether groups of older policy versions may be consumed (up to maxLag)."),
      col("seed", "BIGINT", "The run's seed (RlConfig.seed)."),
      col("config", "JSON", "The whole parsed RlConfig (camelCase keys) as JSON text."),
      col(
        "config_hash",
        "VARCHAR",
        "configHash(config): 16 hex digits, equal for configs that differ only in paths/names.",
      ),
      col("status", "VARCHAR", "running | finished | failed | killed (run-lifecycle.ts)."),
      col(
        "summary",
        "JSON",
        "At the end: {steps, perTask (groups consumed per task), last (the last step's metrics)}, or {error, " +
          "steps} when it failed; null while running.",
      ),
      col("started_at", "TIMESTAMP", "When the run was first inserted (UTC)."),
      col("ended_at", "TIMESTAMP", "When it last ended (UTC); null while running."),
    ],
  },
  {
    table: "rl_steps",
    owner: "erl",
    description:
      "One row per policy update of a trainRL run (kit/erl/rl/rl-store.ts writeStep, metrics from rl-step.ts).",
    columns: [
      RUN,
      col("step", "INTEGER", "1-based: the policy version this update produced; (run_id, step) is the primary key."),
      col("checkpoint", "VARCHAR", "The checkpoint saved after the step (`<to_name>-step<step>`)."),
      col("groups", "INTEGER", "Groups consumed by this update."),
      col("dropped", "INTEGER", "Groups dropped for exceeding the policy lag (maxLag)."),
      col(
        "mean_reward",
        "DOUBLE",
        "Mean final reward over the consumed rollouts (after gap penalty, parent bonus and hack reward).",
      ),
      col("best_reward", "DOUBLE", "Highest final reward among the consumed rollouts (0 when none)."),
      col(
        "best_advantage",
        "DOUBLE",
        "Mean over the consumed groups of the entropic advantage given to each group's best.",
      ),
      col("beta", "DOUBLE", "Mean entropic β over the consumed groups."),
      col("valid_rate", "DOUBLE", "Share in [0, 1] of consumed rollouts that succeeded and were not flagged as hacks."),
      col("hack_flags", "INTEGER", "Consumed rollouts flagged by a reward-hacking check."),
      col("wall_s", "DOUBLE", "Seconds since the previous step (or the run's start)."),
      col(
        "metrics",
        "JSON",
        "{gspo (GSPO update stats), perTask (groups consumed per task so far), meanLag, parentCopies (rollouts " +
          "whose code equals a parent's, reward 0)}.",
      ),
      createdAt("the step"),
    ],
  },
  {
    table: "rl_groups",
    owner: "erl",
    description:
      "One row per group of rollouts sampled for one task and operator (kit/erl/rl/rl-store.ts writeStep), " +
      "written with the step that consumed or dropped it.",
    columns: [
      RUN,
      col("group_id", "VARCHAR", "`g<serial, 5 digits>` in sampling order; (run_id, group_id) is the primary key."),
      col("task_id", "VARCHAR", "The task the group was sampled for."),
      col("operator", "VARCHAR", "draft | improve | debug | crossover (draft when no eligible parent was stored)."),
      col("parent_ids", "JSON", "The parent states' ids (rl_parent_states.state_id), a JSON array."),
      col(
        "policy_version",
        "INTEGER",
        "The params version (rl_steps.step; 0 = the starting params) it was sampled from.",
      ),
      col("consumed_step", "INTEGER", "The step that used it; null when it was dropped."),
      col("status", "VARCHAR", "consumed | dropped."),
      col(
        "best_bound",
        "DOUBLE",
        "The adaptive upper bound B on signed graded test scores (higher is better) mapped to reward 1; null " +
          "when dropped or unknown.",
      ),
      col("worst_bound", "DOUBLE", "The adaptive lower bound W mapped to reward 0 (signed scores); null when dropped."),
      col("beta", "DOUBLE", "The group's entropic β (entropic-advantage.ts); null when dropped."),
      col(
        "messages",
        "JSON",
        "The prompt as the LLM policy would render it (renderPrompt), a JSON list of {role, content}.",
      ),
      col("started_s", "DOUBLE", "Seconds since the run (or its resume) started when sampling began."),
      col("ended_s", "DOUBLE", "Seconds since the run (or its resume) started when its last rollout finished."),
      createdAt("the group"),
    ],
  },
  {
    table: "rl_rollouts",
    owner: "erl",
    description:
      "One row per program of a consumed group, with its reward and advantages (kit/erl/rl/rl-store.ts " +
      "writeStep; rewards from group-rewards.ts). ROLLOUT_EXPORT_SQL joins it to rl_groups for LLM trainers.",
    columns: [
      RUN,
      col("group_id", "VARCHAR", "Its group (rl_groups.group_id)."),
      col("idx", "INTEGER", "Its index in the group; (run_id, group_id, idx) is the primary key."),
      col("task_id", "VARCHAR", "The task of its group (tasks.task_id)."),
      col("operator", "VARCHAR", "Its group's operator (rl_groups.operator)."),
      col("code", "VARCHAR", "The program the grammar policy wrote."),
      col("choices", "JSON", "The grammar policy's decisions that wrote it (what GSPO updates), a JSON array."),
      col("old_log_prob", "DOUBLE", "Natural-log probability of those choices under the params it was sampled from."),
      col("status", "VARCHAR", "The sandbox feedback mode, or not_executed (flagged by the judge before running)."),
      col("valid_score", "DOUBLE", "The validation score it printed (metric units and direction); null when none."),
      col(
        "test_score",
        "DOUBLE",
        "Its graded hidden test score (metric units and direction): what the reward is based on.",
      ),
      col(
        "gap",
        "DOUBLE",
        "Relative validation–test gap |test − validation| / scale (gap-penalty.ts); null when unknown.",
      ),
      col(
        "gap_factor",
        "DOUBLE",
        "max(0, 1 − coefficient · gap / tolerance) that multiplies a positive reward when the penalty is " +
          "enabled (default off); 1 when off or without a gap.",
      ),
      col(
        "reward",
        "DOUBLE",
        "Final reward: r = the bounded reward in [0, 1] of its signed test score times gap_factor; for " +
          "Improve/Debug/Crossover + 0.5·max(0, r − r_parent) (parent-bonus.ts), or 0 when its code equals a " +
          "parent's; hackReward (default −0.5) when flagged.",
      ),
      col("advantage", "DOUBLE", "Its entropic advantage within the group (what the GSPO update uses)."),
      col(
        "grpo_advantage",
        "DOUBLE",
        "The GRPO advantage (reward − group mean) / (sample std + 1e-6), 0 for a uniform group; for comparison.",
      ),
      col(
        "hack_check",
        "VARCHAR",
        "Which reward-hacking check flagged it: judge | sample_submission | sample_permutation | " +
          "constant_predictions; null when none did.",
      ),
      col("hack_reason", "VARCHAR", "The flagging check's reason; null when not flagged."),
      col("execution_id", "VARCHAR", "Its execution record's id; null when it was not executed."),
      col("wall_s", "DOUBLE", "Seconds of the program's run (the record's wall_s); null when not executed."),
      createdAt("the rollout"),
    ],
  },
  {
    table: "rl_parent_states",
    owner: "erl",
    description:
      "The RL parent-state store after the latest step (kit/erl/rl/parent-store.ts toRows): per task the top " +
      "programs by parent fitness. writeStep replaces the run's rows at every step.",
    columns: [
      RUN,
      col("task_id", "VARCHAR", "The task whose parent store holds the program (tasks.task_id)."),
      col("state_id", "VARCHAR", "`<run_id>/<node_id>` of a seeded evolve node, or `<group_id>-<idx>` of a rollout."),
      col(
        "reward",
        "DOUBLE",
        "The program's reward when stored: its rollout's final reward (rl_rollouts.reward), or for a seeded " +
          "evolve node its signed test score through the adaptive bounds.",
      ),
      col("visits", "INTEGER", "How often it has been drawn as a parent."),
      col("child_rewards", "JSON", "The rewards of the rollouts it parented, a JSON array."),
      col("view", "JSON", "The NodeView handed to operators when it is a parent (code, plan, status, scores…)."),
      createdAt("the state"),
    ],
  },
  {
    table: "rl_task_bounds",
    owner: "erl",
    description:
      "Per trainRL run and task, the static reward bounds the run used (kit/erl/rl/fixed-scale.ts): written once " +
      "at the run's start, read back on resume, and the fixed scale its group-best rewards are laid out on.",
    columns: [
      RUN,
      col("task_id", "VARCHAR", "The task (tasks.task_id)."),
      col("higher_is_better", "BOOLEAN", "The metric's direction (signed bounds are higher-is-better)."),
      col(
        "static_best",
        "DOUBLE",
        "B_static, signed: max(the metric's theoretical best, the leaderboard's best); null when neither is known.",
      ),
      col(
        "static_worst",
        "DOUBLE",
        "W_static, signed: the leaderboard's last team, else the trivial baseline's score; null when neither.",
      ),
      col("worst_from", "VARCHAR", "Where W_static came from: leaderboard | trivial | none."),
      col(
        "trivial_score",
        "DOUBLE",
        "The trivial baseline's raw graded test score; null when it was not run (rl.trivialWorst) or not graded.",
      ),
    ],
  },
];
