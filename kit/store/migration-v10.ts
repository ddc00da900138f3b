// Version 10 of the workspace schema: every node's prompt size (issue 31's search-efficiency layout). Shipped: never
// edit it; a change is a new migration at the end of MIGRATIONS (schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATION_V10: Migration = {
  version: 10,
  description:
    "cards.prompt_chars (characters of the operator prompt the node's context renders to, for every policy, so " +
    "grammar runs carry the paper's prompt-size measures; null for cards written before)",
  sql: ["ALTER TABLE cards ADD COLUMN prompt_chars INTEGER"],
};
