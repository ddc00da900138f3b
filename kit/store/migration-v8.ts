// Version 8 of the workspace schema: the gym corpus's funnel (issue 27). Shipped: never edit it; a change is a new
// migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATION_V8: Migration = {
  version: 8,
  description:
    "corpus_stages (each candidate's or framed task's fate per funnel stage) and corpus_tasks (the accepted " +
    "tasks of a corpus build with their suites; kit/gym/corpus)",
  sql: [
    `CREATE TABLE corpus_stages (
      build_id VARCHAR,
      candidate VARCHAR,
      task_id VARCHAR,          -- NULL for the candidate-level stages (export, frame)
      stage VARCHAR,            -- export | frame | build | quality | headroom | gate
      status VARCHAR,           -- pass | fail | skip
      reason VARCHAR,
      ms DOUBLE,
      recorded_at TIMESTAMP DEFAULT current_timestamp
    )`,
    `CREATE TABLE corpus_tasks (
      build_id VARCHAR,
      id VARCHAR,
      candidate VARCHAR,
      study VARCHAR,
      source VARCHAR,
      package VARCHAR,
      modality VARCHAR,
      task_type VARCHAR,
      metric VARCHAR,
      n_rows BIGINT,
      package_bytes BIGINT,
      package_hash VARCHAR,
      headroom_constant DOUBLE,
      headroom_reference DOUBLE,
      headroom_model VARCHAR,
      headroom_normalised DOUBLE,
      synthesised BOOLEAN,
      suite VARCHAR,            -- train | heldout
      recorded_at TIMESTAMP DEFAULT current_timestamp,
      PRIMARY KEY (build_id, id)
    )`,
  ],
};
