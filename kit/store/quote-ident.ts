/** A table or column name as a DuckDB identifier (double-quoted, inner quotes doubled). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
