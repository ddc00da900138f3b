// A Parquet file's JSON cells bounded before they enter a workspace (issue 59.6): a crafted export (a checkpoint
// whose params nest 20,000 levels deep) imports fine, then every command that loads it walks the JSON and dies
// with a stack trace. Checked in DuckDB (size, and depth by peeling bracket pairs), so only a cell over a bound comes
// to JS, to be counted again and named in the error.
import { MAX_JSON_BYTES, MAX_JSON_DEPTH, checkJsonText, tooLarge, type JsonBounds } from "./bounded-json.js";
import { quoteIdent } from "./quote-ident.js";
import type { Workspace } from "./workspace.js";

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * SQL that is true when the JSON text `v` nests deeper than `maxDepth`, computed in DuckDB so that no cell comes to
 * JS unless it is too deep: strings removed, then only the brackets kept ({} read as []), then `maxDepth` rounds of
 * removing every innermost pair `[]` (each round removes exactly one level); anything left is deeper. About 60 MB of
 * JSON text a second on one core.
 */
function deeperThan(v: string, maxDepth: number): string {
  const noStrings = `regexp_replace(${v}, '"(?:[^"\\\\]|\\\\.)*"', '', 'g')`;
  const brackets = `translate(regexp_replace(${noStrings}, '[^\\[\\]{}]', '', 'g'), '{}', '[]')`;
  let rounds = brackets;
  for (let i = 0; i < maxDepth; i++) rounds = `replace(${rounds}, '[]', '')`;
  return `${rounds} <> ''`;
}

/**
 * Throws JsonBoundsError naming the file, column and row of the first JSON cell over `bounds` (default 64 levels,
 * 16 MiB). The cells checked: the file's JSON columns, and its columns that `table` (when it exists) stores as JSON.
 */
export async function checkParquetJson(
  ws: Workspace,
  path: string,
  table: string | null,
  bounds: JsonBounds = {},
): Promise<void> {
  const maxBytes = bounds.maxBytes ?? MAX_JSON_BYTES;
  const maxDepth = bounds.maxDepth ?? MAX_JSON_DEPTH;
  const src = `read_parquet(${sqlString(path)})`;
  const fileColumns = await ws.query<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${src}`);
  const jsonInTable = new Set(
    table
      ? (
          await ws.query<{ column_name: string }>(
            "SELECT column_name FROM information_schema.columns WHERE table_name = $table AND data_type = 'JSON'",
            { table },
          )
        ).map((c) => c.column_name)
      : [],
  );
  const columns = fileColumns.filter(
    (c) => c.column_type === "JSON" || (jsonInTable.has(c.column_name) && c.column_type === "VARCHAR"),
  );
  for (const { column_name: name } of columns) {
    const text = `CAST(${quoteIdent(name)} AS VARCHAR)`;
    const cells = await ws.query<{ row: number; bytes: number; value: string | null }>(
      `SELECT row, bytes, CASE WHEN bytes > $maxBytes THEN NULL ELSE value END AS value FROM (
         SELECT row_number() OVER () AS row, strlen(${text}) AS bytes, ${text} AS value FROM ${src})
       WHERE bytes > $maxBytes OR ${deeperThan("value", maxDepth)} ORDER BY row`,
      { maxBytes },
    );
    for (const c of cells) {
      const input = `${path} (column ${name}, row ${c.row})`;
      // A cell over the byte limit is not read back.
      if (c.value === null) throw tooLarge(input, Number(c.bytes), maxBytes);
      checkJsonText(c.value, input, { maxBytes, maxDepth });
    }
  }
}
