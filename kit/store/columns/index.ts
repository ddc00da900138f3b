// Every table and column of the workspace, described once beside the migrations that define them (issue 26).
import { TABLES } from "../schema.js";
import { ERL_RL_TABLES } from "./erl-rl-tables.js";
import { ERL_TABLES } from "./erl-tables.js";
import { EXPERIMENT_TABLES } from "./experiment-tables.js";
import { EVO_CARD_TABLES } from "./evo-cards.js";
import { EVO_RUN_TABLES } from "./evo-runs.js";
import { GYM_CORPUS_TABLES } from "./gym-corpus-tables.js";
import { GYM_TABLES } from "./gym-tables.js";
import { LLM_TABLES } from "./llm-tables.js";
import { REPRODUCE_TABLES } from "./reproduce-tables.js";
import { SANDBOX_TABLES } from "./sandbox-tables.js";
import { STORE_TABLES } from "./store-tables.js";
import type { TableDoc } from "./table-doc.js";

export type { ColumnDoc, OwnerLayer, TableDoc } from "./table-doc.js";
export { schemaMarkdown, SCHEMA_DOC_BEGIN, SCHEMA_DOC_END } from "./schema-markdown.js";

const BY_NAME = new Map(
  [
    [STORE_TABLES, GYM_TABLES, GYM_CORPUS_TABLES, SANDBOX_TABLES, LLM_TABLES],
    [EVO_RUN_TABLES, EVO_CARD_TABLES, ERL_TABLES, ERL_RL_TABLES, REPRODUCE_TABLES, EXPERIMENT_TABLES],
  ]
    .flat(2)
    .map((t) => [t.table, t]),
);

/** Every table of the current schema with its description and columns: schema_meta, then TABLES' order. */
export const SCHEMA_DOCS: readonly TableDoc[] = ["schema_meta", ...TABLES].map((t) => {
  const doc = BY_NAME.get(t);
  if (!doc) throw new Error(`kit/store/columns: table ${t} has no description`);
  return doc;
});

/** The description of `table`, or undefined when the schema has no such table. */
export const tableDoc = (table: string): TableDoc | undefined => SCHEMA_DOCS.find((t) => t.table === table);
