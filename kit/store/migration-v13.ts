// Version 13 of the workspace schema: registered experiments (issue 60; kit/experiment). Shipped: never edit it; a
// change is a new migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATION_V13: Migration = {
  version: 13,
  description:
    "experiments, experiment_runs, experiment_results, experiment_looks (registered experiments: the resolved plan " +
    "and its hash, each run of it, every cell's outcome, and every read of the results; kit/experiment)",
  sql: [
    `CREATE TABLE experiments (
      registration_id VARCHAR PRIMARY KEY,
      name VARCHAR,
      question VARCHAR,
      plan JSON,                -- the resolved plan (kit/experiment ResolvedPlan), camelCase keys
      plan_hash VARCHAR,        -- sha256 hex of the resolved plan's canonical JSON
      kit_commit VARCHAR,
      registered_at TIMESTAMP,
      label VARCHAR,            -- registered | exploratory
      power_line VARCHAR,
      warnings JSON             -- a JSON array of strings
    )`,
    `CREATE TABLE experiment_runs (
      run_id VARCHAR PRIMARY KEY,
      registration_id VARCHAR,
      run_number INTEGER,
      kit_commit VARCHAR,
      started_at TIMESTAMP,
      finished_at TIMESTAMP,
      status VARCHAR,           -- running | completed | failed
      is_registered_result BOOLEAN,
      summary JSON,
      error VARCHAR
    )`,
    `CREATE TABLE experiment_results (
      run_id VARCHAR,
      arm VARCHAR,
      task_id VARCHAR,
      draw_or_seed INTEGER,
      status VARCHAR,
      valid BOOLEAN,
      valid_score DOUBLE,
      test_score DOUBLE,
      normalisable BOOLEAN,
      normalized DOUBLE,
      medal VARCHAR,            -- gold | silver | bronze | none; NULL without a leaderboard
      human_rank DOUBLE,
      valid_rate DOUBLE,
      evolve_run_id VARCHAR,
      sandbox_s DOUBLE,
      recorded_at TIMESTAMP DEFAULT current_timestamp,
      PRIMARY KEY (run_id, arm, task_id, draw_or_seed)
    )`,
    `CREATE TABLE experiment_looks (
      registration_id VARCHAR,
      looked_at TIMESTAMP,
      command VARCHAR,
      what VARCHAR
    )`,
  ],
};
