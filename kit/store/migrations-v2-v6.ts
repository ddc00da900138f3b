// Versions 2 to 6 of the workspace schema: checkpoints, RL, node timings, card columns, the closed loop.
// Shipped: never edit them; a change is a new migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATIONS_V2_V6: readonly Migration[] = [
  {
    version: 2,
    description: "policy_checkpoints (named, versioned grammar-policy params; kit/erl)",
    sql: [
      `CREATE TABLE policy_checkpoints (
        name VARCHAR PRIMARY KEY,     -- user-facing name, e.g. "sft-1", "rl-run3-step4"
        policy VARCHAR,               -- 'grammar' (params below); other kinds reserved for LLM exports
        format_version INTEGER,       -- GrammarParams.version
        kit_version VARCHAR,          -- package.json version that wrote it
        parent VARCHAR,               -- checkpoint it was trained from ('default' for the built-in params)
        source VARCHAR,               -- 'sft' | 'rl' | 'import' | 'loop'
        dataset VARCHAR,              -- dataset name it was trained on (sft), or rl run id (rl)
        params JSON,                  -- paramsToJson(GrammarParams)
        config JSON,
        config_hash VARCHAR,
        metrics JSON,                 -- e.g. log-likelihood before/after, step metrics
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    ],
  },
  {
    version: 3,
    description: "rl_runs, rl_steps, rl_groups, rl_rollouts, rl_parent_states (trainRL; kit/erl)",
    sql: [
      `CREATE TABLE rl_runs (
        run_id VARCHAR PRIMARY KEY,
        tasks JSON,               -- task ids trained on
        from_checkpoint VARCHAR,  -- "default", a checkpoint name or a params file
        to_name VARCHAR,          -- final checkpoint name; per-step checkpoints are <to_name>-step<k>
        mode VARCHAR,             -- async | sync
        seed BIGINT,
        config JSON,
        config_hash VARCHAR,
        status VARCHAR,           -- running | finished | failed | killed
        summary JSON,
        started_at TIMESTAMP DEFAULT current_timestamp,
        ended_at TIMESTAMP
      )`,
      `CREATE TABLE rl_steps (
        run_id VARCHAR,
        step INTEGER,             -- 1-based: the policy version this step produced
        checkpoint VARCHAR,
        groups INTEGER,           -- groups consumed by this update
        dropped INTEGER,          -- groups dropped for exceeding the policy lag
        mean_reward DOUBLE,
        best_reward DOUBLE,
        best_advantage DOUBLE,    -- mean advantage given to each group's best candidate
        beta DOUBLE,              -- mean entropic β over the groups
        valid_rate DOUBLE,
        hack_flags INTEGER,
        wall_s DOUBLE,            -- since the previous step
        metrics JSON,             -- GSPO stats, per-task counts, lag
        created_at TIMESTAMP DEFAULT current_timestamp,
        PRIMARY KEY (run_id, step)
      )`,
      `CREATE TABLE rl_groups (
        run_id VARCHAR,
        group_id VARCHAR,
        task_id VARCHAR,
        operator VARCHAR,
        parent_ids JSON,
        policy_version INTEGER,   -- params version the group was sampled from
        consumed_step INTEGER,    -- the step that used it; null when dropped
        status VARCHAR,           -- consumed | dropped
        best_bound DOUBLE,
        worst_bound DOUBLE,
        beta DOUBLE,
        messages JSON,            -- the prompt as the LLM policy renders it (renderPrompt)
        started_s DOUBLE,         -- seconds since the run (or resume) started
        ended_s DOUBLE,
        created_at TIMESTAMP DEFAULT current_timestamp,
        PRIMARY KEY (run_id, group_id)
      )`,
      `CREATE TABLE rl_rollouts (
        run_id VARCHAR,
        group_id VARCHAR,
        idx INTEGER,
        task_id VARCHAR,
        operator VARCHAR,
        code VARCHAR,
        choices JSON,
        old_log_prob DOUBLE,
        status VARCHAR,           -- sandbox feedback mode, or not_executed (flagged by the judge)
        valid_score DOUBLE,
        test_score DOUBLE,
        gap DOUBLE,               -- relative validation–test gap (null: unknown)
        gap_factor DOUBLE,
        reward DOUBLE,
        advantage DOUBLE,         -- entropic
        grpo_advantage DOUBLE,    -- for comparison
        hack_check VARCHAR,       -- null | judge | sample_submission | sample_permutation | constant_predictions
        hack_reason VARCHAR,
        execution_id VARCHAR,
        wall_s DOUBLE,
        created_at TIMESTAMP DEFAULT current_timestamp,
        PRIMARY KEY (run_id, group_id, idx)
      )`,
      `CREATE TABLE rl_parent_states (
        run_id VARCHAR,
        task_id VARCHAR,
        state_id VARCHAR,
        reward DOUBLE,
        visits INTEGER,
        child_rewards JSON,
        view JSON,                -- the NodeView handed to operators
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    ],
  },
  {
    version: 4,
    description: "node_timings: where each node's wall time went (policy, context, sandbox, program, scoring, store)",
    sql: [
      `CREATE TABLE node_timings (
        run_id VARCHAR,
        node_id VARCHAR,
        node_s DOUBLE,            -- the whole step: plan, context, policy, evaluation, store, waits
        policy_s DOUBLE,          -- the policy writing the program (LLM calls included)
        context_s DOUBLE,         -- building the operator's context (memory synthesis included)
        sandbox_s DOUBLE,         -- the sandbox's own steps around the program (job folder, cgroup, records)
        program_s DOUBLE,         -- the program's process, start to exit (0 when a stored record was reused)
        scoring_s DOUBLE,         -- the hidden-test scorer (0 when nothing was scored)
        store_s DOUBLE,           -- writing the node, its execution record and its card
        created_at TIMESTAMP DEFAULT current_timestamp,
        PRIMARY KEY (run_id, node_id)
      )`,
    ],
  },
  {
    version: 5,
    description:
      "cards.lineage_depth (apart from the loop generation generation_id) and cards.utility (the " +
      "node's own selection utility; selection_utility is its parents')",
    sql: [`ALTER TABLE cards ADD COLUMN lineage_depth INTEGER`, `ALTER TABLE cards ADD COLUMN utility DOUBLE`],
  },
  {
    version: 6,
    description: "loops, loop_stages, loop_heldout (the closed loop evolve → collectSft → SFT → trainRL; kit/erl)",
    sql: [
      `CREATE TABLE loops (
        loop_id VARCHAR PRIMARY KEY,
        train_tasks JSON,
        heldout_tasks JSON,
        config JSON,
        config_hash VARCHAR,
        status VARCHAR,           -- running | finished | failed
        started_at TIMESTAMP DEFAULT current_timestamp,
        ended_at TIMESTAMP
      )`,
      `CREATE TABLE loop_stages (
        loop_id VARCHAR,
        generation INTEGER,
        stage VARCHAR,            -- heldout | evolve | collect | sft | rl | checkpoint
        status VARCHAR,           -- running | done
        result JSON,
        started_at TIMESTAMP DEFAULT current_timestamp,
        ended_at TIMESTAMP,
        PRIMARY KEY (loop_id, generation, stage)
      )`,
      `CREATE TABLE loop_heldout (
        loop_id VARCHAR,
        generation INTEGER,
        checkpoint VARCHAR,       -- the policy checkpoint evaluated ("default" for the built-in params)
        task_id VARCHAR,
        seed INTEGER,
        run_id VARCHAR,
        valid_score DOUBLE,       -- champion validation score
        test_score DOUBLE,        -- champion hidden test score
        valid_rate DOUBLE,
        mean_draft_score DOUBLE,  -- mean validation score of the run's successful drafts
        trivial DOUBLE,
        reference DOUBLE,
        normalized DOUBLE,        -- (test − trivial) / (reference − trivial), null without baselines
        PRIMARY KEY (loop_id, generation, task_id, seed)
      )`,
    ],
  },
];
