// `openmle workspace schema [table] [--json]`: the kit's own schema, described (kit/store/columns/). It opens no
// workspace: it describes the current schema version, the one every workspace is migrated to when opened.
import type { Command } from "commander";
import { SCHEMA_DOCS, SCHEMA_VERSION, tableDoc, type TableDoc } from "../store/index.js";
import { formatTable, MAX_CELL } from "./format.js";
import { output, UsageError } from "./run-cli.js";

/** `text` cut into lines of at most `width` characters at spaces (a longer word gets a line of its own). */
export function wrapWords(text: string, width: number = MAX_CELL): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** Rows for formatTable whose last column is `text` wrapped: the other cells are filled on the first line only. */
function wrappedRows(first: Record<string, unknown>, key: string, text: string): Record<string, unknown>[] {
  const blank = Object.fromEntries(Object.keys(first).map((k) => [k, ""]));
  return wrapWords(text).map((l, i) => ({ ...(i ? blank : first), [key]: l }));
}

function tablesText(): string {
  const rows = SCHEMA_DOCS.flatMap((t) =>
    wrappedRows({ table: t.table, owner: t.owner, columns: t.columns.length }, "description", t.description),
  );
  const head = `schema v${SCHEMA_VERSION}: ${SCHEMA_DOCS.length} tables (\`workspace schema TABLE\` for its columns)`;
  return `${head}\n${formatTable(rows)}`;
}

function columnsText(t: TableDoc): string {
  const rows = t.columns.flatMap((c) => wrappedRows({ column: c.name, type: c.type }, "description", c.description));
  return [
    `${t.table} (owner ${t.owner}, schema v${SCHEMA_VERSION})`,
    ...wrapWords(t.description, 100),
    "",
    formatTable(rows),
  ].join("\n");
}

export function registerWorkspaceSchema(ws: Command): void {
  ws.command("schema [table]")
    .description("Every table with its owner and description; with a table, its columns (name, type, description)")
    .option("--json", "machine-readable output (snake_case keys)")
    .action((table: string | undefined, o: { json?: boolean }) => {
      if (table === undefined) {
        output(!!o.json, { schema_version: SCHEMA_VERSION, tables: SCHEMA_DOCS }, tablesText);
        return;
      }
      const t = tableDoc(table);
      if (!t)
        throw new UsageError(
          `no table "${table}" in the schema; tables: ${SCHEMA_DOCS.map((d) => d.table).join(", ")}`,
        );
      output(!!o.json, { schema_version: SCHEMA_VERSION, ...t }, () => columnsText(t));
    });
}
