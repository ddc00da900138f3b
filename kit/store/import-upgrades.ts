import { RUN_CHAMPION_BACKFILL } from "./migration-v7.js";
import { quoteIdent } from "./quote-ident.js";

/**
 * How an export made at an older schema version imports into the current one. Columns a migration added
 * import as NULL (INSERT BY NAME: the precedent of migration 5, whose recorded runs were never re-exported);
 * a renamed column is read under its new name; columns derived from the imported rows are filled afterwards.
 */

/** Columns a migration renamed, per table, old name → new. */
export const RENAMED_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cards: { is_champion: "champion_at_write" }, // migration 7
};

/** Statements run after importing into a table: they fill derived columns that are still empty. */
export const AFTER_IMPORT: Readonly<Record<string, readonly string[]>> = {
  runs: RUN_CHAMPION_BACKFILL, // migration 7: the final champion from runs.summary …
  nodes: RUN_CHAMPION_BACKFILL, // … and its fitness from nodes (either may be imported first)
};

/** The SELECT list that reads a file with `fileColumns` into `table`: old names of renamed columns as the new ones. */
export function importSelectList(table: string, fileColumns: readonly string[]): string {
  const renames = Object.entries(RENAMED_COLUMNS[table] ?? {}).filter(
    ([from, to]) => fileColumns.includes(from) && !fileColumns.includes(to),
  );
  if (!renames.length) return "*";
  const excluded = renames.map(([from]) => quoteIdent(from)).join(", ");
  return `* EXCLUDE (${excluded}), ${renames.map(([f, t]) => `${quoteIdent(f)} AS ${quoteIdent(t)}`).join(", ")}`;
}
