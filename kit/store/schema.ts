/**
 * The workspace schema as forward-only migrations. Never edit a shipped migration:
 * add a new one at the end. `SCHEMA_VERSION` is the newest migration's version.
 */
import type { Migration } from "./migration.js";
import { MIGRATION_V1 } from "./migration-v1.js";
import { MIGRATIONS_V2_V6 } from "./migrations-v2-v6.js";
import { MIGRATION_V7 } from "./migration-v7.js";
import { MIGRATION_V8 } from "./migration-v8.js";
import { MIGRATION_V9 } from "./migration-v9.js";
import { MIGRATION_V10 } from "./migration-v10.js";
import { MIGRATION_V11 } from "./migration-v11.js";
import { MIGRATION_V12 } from "./migration-v12.js";
import { MIGRATION_V13 } from "./migration-v13.js";

export type { Migration } from "./migration.js";

export const MIGRATIONS: readonly Migration[] = [
  MIGRATION_V1,
  ...MIGRATIONS_V2_V6,
  MIGRATION_V7,
  MIGRATION_V8,
  MIGRATION_V9,
  MIGRATION_V10,
  MIGRATION_V11,
  MIGRATION_V12,
  MIGRATION_V13,
];

/** The version of the newest migration (versions may skip numbers; each applies once, in order). */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Tables every workspace of the current schema has (for checks and docs). */
export const TABLES = [
  "tasks",
  "task_reviews",
  "runs",
  "nodes",
  "cards",
  "executions",
  "llm_calls",
  "memory_cache",
  "datasets",
  "policy_checkpoints",
  "rl_runs",
  "rl_steps",
  "rl_groups",
  "rl_rollouts",
  "rl_parent_states",
  "rl_task_bounds",
  "node_timings",
  "loops",
  "loop_stages",
  "loop_heldout",
  "loop_heldout_drafts",
  "corpus_stages",
  "corpus_tasks",
  "reproduce_cells",
  "experiments",
  "experiment_runs",
  "experiment_results",
  "experiment_looks",
] as const;
export type TableName = (typeof TABLES)[number];
