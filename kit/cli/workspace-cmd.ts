import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { familyBoard } from "../evo/index.js";
import {
  checkParquetJson,
  exportParquet,
  exportTable,
  formatOfFile,
  importParquet,
  EXPORT_FORMATS,
  type ExportFormat,
  openWorkspace,
  SCHEMA_VERSION,
  startRun,
  finishRun,
  QueryLimitError,
  tableCounts,
  WorkspaceError,
} from "../store/index.js";
import { formatTable } from "./format.js";
import { fileFlag } from "./path-flag.js";
import { output, UsageError } from "./run-cli.js";
import { registerWorkspaceSchema } from "./workspace-schema-cmd.js";
import { workspaceArgs } from "./workspace-flag.js";
import {
  addQueryLimitFlags,
  printRows,
  queryLimitLine,
  queryLimits,
  type QueryLimitFlags,
} from "./workspace-query-limits.js";

const DIR_ARG = "workspace folder (the same as --workspace DIR)";
const WS_FLAG = "workspace folder (or give it as the first argument)";

/** --format, else the file's extension; a name that says neither is refused (a .csv file must hold CSV). */
function exportFormat(file: string, flag: string | undefined): ExportFormat {
  if (flag !== undefined) {
    if (!(EXPORT_FORMATS as readonly string[]).includes(flag))
      throw new UsageError(`--format ${flag}: pass one of ${EXPORT_FORMATS.join(", ")}`);
    return flag as ExportFormat;
  }
  const f = formatOfFile(file);
  if (!f) throw new UsageError(`${file}: name the file .parquet or .csv, or pass --format parquet|csv`);
  return f;
}

export function registerWorkspace(program: Command): void {
  const ws = program.command("workspace").description("Create, inspect, query, export and import workspaces (DuckDB)");

  ws.command("info")
    .argument("[dir]", DIR_ARG)
    .description("Schema version and row counts per table")
    .option("--workspace <dir>", WS_FLAG)
    .option("--json", "machine-readable output")
    .action(async (d: string | undefined, o: { workspace?: string; json?: boolean }) => {
      const { dir } = workspaceArgs(o.workspace, [d], [], "workspace info");
      const w = await openWorkspace(dir, { readOnly: true });
      try {
        const counts = await tableCounts(w);
        output(!!o.json, { dir: w.dir, schemaVersion: w.schemaVersion, counts }, () =>
          [
            `workspace ${w.dir} (schema v${w.schemaVersion})`,
            ...Object.entries(counts).map(([t, n]) => `  ${t.padEnd(14)} ${n}`),
          ].join("\n"),
        );
      } finally {
        w.close();
      }
    });

  ws.command("check")
    .argument("[dir]", DIR_ARG)
    .description("Read every block of table data, so DuckDB verifies its checksums (exit 1 on corruption)")
    .option("--workspace <dir>", WS_FLAG)
    .option("--json", "machine-readable output")
    .action(async (d: string | undefined, o: { workspace?: string; json?: boolean }) => {
      const { dir } = workspaceArgs(o.workspace, [d], [], "workspace check");
      const w = await openWorkspace(dir, { readOnly: true });
      try {
        const r = await w.verify();
        output(
          !!o.json,
          { dir: w.dir, ok: true, ...r },
          () => `workspace ${w.dir}: ${r.tables} tables, ${r.rows} rows read, every data block's checksum matched`,
        );
      } finally {
        w.close();
      }
    });

  const query = ws
    .command("query")
    .usage("[options] [dir] <sql>")
    .argument("[dir]", DIR_ARG)
    .argument("[sql]", "one SELECT statement")
    .description(
      "Run one read-only SELECT and print the rows (no file, network or settings access; a time and a memory limit)",
    )
    .option("--workspace <dir>", WS_FLAG)
    .option("--json", "print rows as a JSON array (keys as the query names its columns)");
  addQueryLimitFlags(query).action(
    async (
      d: string | undefined,
      q: string | undefined,
      o: { workspace?: string; json?: boolean } & QueryLimitFlags,
    ) => {
      const { dir, rest } = workspaceArgs(o.workspace, [d, q], ["sql"], "workspace query");
      const sql = rest[0]!;
      const limits = queryLimits(o);
      const w = await openWorkspace(dir, { readOnly: true, confined: true, limits });
      try {
        const rows = await w.query(sql).catch((e: unknown) => {
          if (e instanceof QueryLimitError) throw queryLimitLine(e);
          if (e instanceof WorkspaceError || !(e instanceof Error)) throw e;
          throw new UsageError(`query failed: ${e.message.split("\n")[0]}`);
        });
        printRows(!!o.json, rows);
      } finally {
        w.close();
      }
    },
  );

  ws.command("export")
    .usage("[options] [dir] <tableOrSql> <file>")
    .argument("[dir]", DIR_ARG)
    .argument("[tableOrSql]", "a table name or one SELECT")
    .argument("[file]", "the file to write: .parquet (or .pq) or .csv, or any name with --format")
    .description("Export a table or a SELECT to Parquet or CSV (by the file's extension, or --format)")
    .option("--workspace <dir>", WS_FLAG)
    .option("--format <f>", `${EXPORT_FORMATS.join(" | ")} (default: from the file's extension)`)
    .action(
      async (
        d: string | undefined,
        a: string | undefined,
        b: string | undefined,
        o: { workspace?: string; format?: string },
      ) => {
        const { dir, rest } = workspaceArgs(o.workspace, [d, a, b], ["tableOrSql", "file"], "workspace export");
        const [what, file] = rest as [string, string];
        const format = exportFormat(file, o.format);
        const w = await openWorkspace(dir, { readOnly: true });
        try {
          process.stdout.write(`${await exportTable(w, what, file, format)}\n`);
        } finally {
          w.close();
        }
      },
    );

  ws.command("import")
    .usage("[options] [dir] <file> <table>")
    .argument("[dir]", DIR_ARG)
    .argument("[file]", "the Parquet file to read")
    .argument("[table]", "the table to append to (or create)")
    .description("Import a Parquet file into a table (append by column name, or --create)")
    .option("--workspace <dir>", WS_FLAG)
    .option("--create", "create the table from the file's schema")
    .action(
      async (
        d: string | undefined,
        a: string | undefined,
        b: string | undefined,
        o: { workspace?: string; create?: boolean },
      ) => {
        const { dir, rest } = workspaceArgs(o.workspace, [d, a, b], ["file", "table"], "workspace import");
        const [file, table] = rest as [string, string];
        fileFlag("file", file, "Pass a Parquet file (openmle workspace export writes one).");
        const w = await openWorkspace(dir);
        try {
          // JSON cells nested past 64 levels or over 16 MiB are refused first: every loader would walk them.
          await checkParquetJson(w, resolve(file), o.create ? null : table);
          const n = await importParquet(w, file, table, { create: o.create });
          process.stdout.write(`imported ${n} rows into ${table}\n`);
        } finally {
          w.close();
        }
      },
    );

  registerWorkspaceSchema(ws);

  ws.command("demo")
    .argument("[dir]", DIR_ARG)
    .description("Create a workspace, record a run with a few rows, query it and export Parquet under reports/")
    .option("--workspace <dir>", "workspace folder to create (default workspaces/demo)")
    .option("--out <dir>", "where the Parquet export goes", "reports/workspace-demo")
    .action(async (d: string | undefined, o: { workspace?: string; out: string }) => {
      const dir = d === undefined && o.workspace === undefined ? "workspaces/demo" : undefined;
      const w = await openWorkspace(dir ?? workspaceArgs(o.workspace, [d], [], "workspace demo").dir);
      try {
        const runId = await startRun(w, {
          taskId: "demo",
          harness: "demo",
          policy: "none",
          seed: 0,
          config: { steps: 4 },
        });
        // Four toy experience cards: a lineage draft → improve → debug → crossover.
        const ops = ["draft", "improve", "debug", "crossover"];
        await w.append(
          "cards",
          ops.map((op, i) => ({
            run_id: runId,
            node_id: `${runId}-n${i}`,
            operator: op,
            parents: i ? [`${runId}-n${i - 1}`] : [],
            generation_id: i,
            score: op === "debug" ? null : 0.7 + 0.05 * i,
            status: op === "debug" ? "runtime_error" : "success",
            method_family: i % 2 ? "xgboost" : "sklearn",
          })),
        );
        await finishRun(w, runId, "finished", { nodes: ops.length });
        const board = await familyBoard(w, runId);
        mkdirSync(resolve(o.out), { recursive: true });
        const file = await exportParquet(w, "cards", join(o.out, "cards.parquet"));
        process.stdout.write(
          `workspace ${w.dir} (schema v${SCHEMA_VERSION}), run ` +
            `${runId}\n${formatTable(board.map((r) => ({ ...r })))}\nexported ${file}\n`,
        );
      } finally {
        w.close();
      }
    });
}
