// Version 11 of the workspace schema: the finished cells of the paper's experiments (issue 31; kit/reproduce).
// Shipped: never edit it; a change is a new migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATION_V11: Migration = {
  version: 11,
  description:
    "reproduce_cells (each finished cell of a search experiment: its run and the champion's normalised score, so " +
    "its tables lay out again from the workspace alone; kit/reproduce/cell-store.ts)",
  sql: [
    `CREATE TABLE reproduce_cells (
      experiment VARCHAR,
      preset VARCHAR,
      arm VARCHAR,
      task_id VARCHAR,
      repeat INTEGER,
      run_id VARCHAR,
      modality VARCHAR,
      higher_is_better BOOLEAN,
      valid_rate DOUBLE,
      test_score DOUBLE,
      reference DOUBLE,
      normalisable BOOLEAN,
      normalized DOUBLE,
      grade VARCHAR,            -- gold | silver | bronze | none on a leaderboard; NULL without one
      human_rank DOUBLE,
      recorded_at TIMESTAMP DEFAULT current_timestamp,
      PRIMARY KEY (experiment, preset, arm, task_id, repeat)
    )`,
  ],
};
