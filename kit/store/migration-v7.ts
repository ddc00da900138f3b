// Version 7 of the workspace schema: names that misled (issue 26). Shipped: never edit it; a change is a new
// migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

/**
 * The run's final champion as columns of `runs`, from the summary evolve stored when the run ended
 * (`summary.champion`: kit/evo/run-summary.ts) and the champion's `nodes` row. Only empty columns are
 * filled, so it is safe to repeat: the migration runs it once, and importing an older `runs` or `nodes`
 * export runs it again (import-upgrades.ts). `node_id` is accepted beside `nodeId` for snake_case summaries.
 */
export const RUN_CHAMPION_BACKFILL: readonly string[] = [
  `UPDATE runs SET
     champion_node_id = coalesce(json_extract_string(summary, '$.champion.nodeId'),
                                 json_extract_string(summary, '$.champion.node_id')),
     champion_valid_score = TRY_CAST(coalesce(json_extract_string(summary, '$.champion.validScore'),
                                              json_extract_string(summary, '$.champion.valid_score')) AS DOUBLE),
     champion_test_score = TRY_CAST(coalesce(json_extract_string(summary, '$.champion.testScore'),
                                             json_extract_string(summary, '$.champion.test_score')) AS DOUBLE)
   WHERE champion_node_id IS NULL AND summary IS NOT NULL`,
  `UPDATE runs SET champion_fitness = n.fitness FROM nodes n
   WHERE n.run_id = runs.run_id AND n.node_id = runs.champion_node_id AND runs.champion_fitness IS NULL`,
];

export const MIGRATION_V7: Migration = {
  version: 7,
  description:
    "cards.is_champion renamed champion_at_write (rank 1 when the card was written); runs.champion_node_id, " +
    "champion_valid_score, champion_test_score, champion_fitness (the run's final champion, backfilled)",
  sql: [
    `ALTER TABLE cards RENAME COLUMN is_champion TO champion_at_write`,
    `ALTER TABLE runs ADD COLUMN champion_node_id VARCHAR`,
    `ALTER TABLE runs ADD COLUMN champion_valid_score DOUBLE`,
    `ALTER TABLE runs ADD COLUMN champion_test_score DOUBLE`,
    `ALTER TABLE runs ADD COLUMN champion_fitness DOUBLE`,
    ...RUN_CHAMPION_BACKFILL,
  ],
};
