import { col, type TableDoc } from "./table-doc.js";

/** kit/store's own table: the schema version that migrate.ts reads and bumps. */
export const STORE_TABLES: readonly TableDoc[] = [
  {
    table: "schema_meta",
    owner: "store",
    description:
      "Key/value facts about the workspace itself. migrate.ts creates it with migration 1 and sets " +
      "schema_version inside each migration's transaction.",
    columns: [
      col("key", "VARCHAR", "The fact's name; today only 'schema_version' (primary key)."),
      col(
        "value",
        "VARCHAR",
        "The fact's value as text: for schema_version the number of the newest applied migration " +
          "(kit/store/schema.ts SCHEMA_VERSION).",
      ),
    ],
  },
];
