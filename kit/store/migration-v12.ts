// Version 12 of the workspace schema: the static bounds each trainRL run used per task (issue 31; kit/erl/rl).
// Shipped: never edit it; a change is a new migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATION_V12: Migration = {
  version: 12,
  description:
    "rl_task_bounds (per trainRL run and task: the static bounds, where the worst came from and the trivial " +
    "baseline's score, so rewards read on one fixed scale across arms; kit/erl/rl/fixed-scale.ts)",
  sql: [
    `CREATE TABLE rl_task_bounds (
      run_id VARCHAR,
      task_id VARCHAR,
      higher_is_better BOOLEAN,
      static_best DOUBLE,       -- signed; NULL when the metric's best is unknown and there is no leaderboard
      static_worst DOUBLE,      -- signed; NULL when neither a leaderboard nor a graded trivial baseline gave one
      worst_from VARCHAR,       -- leaderboard | trivial | none
      trivial_score DOUBLE,     -- the trivial baseline's raw test score; NULL when not run or not graded
      PRIMARY KEY (run_id, task_id)
    )`,
  ],
};
