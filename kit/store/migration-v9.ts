// Version 9 of the workspace schema: the loop's policy-level held-out measure (issue 30). Shipped: never edit it; a
// change is a new migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATION_V9: Migration = {
  version: 9,
  description:
    "loop_heldout_drafts (the policy-level held-out measure: fresh Drafts of each generation's checkpoint per " +
    "held-out task, executed and graded; kit/erl/loop)",
  sql: [
    `CREATE TABLE loop_heldout_drafts (
      loop_id VARCHAR,
      generation INTEGER,
      checkpoint VARCHAR,
      task_id VARCHAR,
      draft INTEGER,            -- 0-based index; its draw's seed is the same for every generation
      status VARCHAR,           -- the sandbox feedback mode
      valid_score DOUBLE,
      test_score DOUBLE,
      normalized DOUBLE,
      sandbox_s DOUBLE,
      recorded_at TIMESTAMP DEFAULT current_timestamp,
      PRIMARY KEY (loop_id, generation, task_id, draft)
    )`,
  ],
};
