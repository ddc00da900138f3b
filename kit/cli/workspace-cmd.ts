import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { familyBoard } from "../evo/index.js";
import {
  exportParquet,
  importParquet,
  openWorkspace,
  SCHEMA_VERSION,
  startRun,
  finishRun,
  tableCounts,
  WorkspaceError,
} from "../store/index.js";
import { formatTable } from "./format.js";
import { fileFlag } from "./path-flag.js";
import { output, UsageError } from "./run-cli.js";
import { registerWorkspaceSchema } from "./workspace-schema-cmd.js";

export function registerWorkspace(program: Command): void {
  const ws = program.command("workspace").description("Create, inspect, query, export and import workspaces (DuckDB)");

  ws.command("info <dir>")
    .description("Schema version and row counts per table")
    .option("--json", "machine-readable output")
    .action(async (dir: string, o: { json?: boolean }) => {
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

  ws.command("check <dir>")
    .description("Read every block of table data, so DuckDB verifies its checksums (exit 1 on corruption)")
    .option("--json", "machine-readable output")
    .action(async (dir: string, o: { json?: boolean }) => {
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

  ws.command("query <dir> <sql>")
    .description("Run one read-only SELECT and print the rows (no file, network or settings access)")
    .option("--json", "print rows as a JSON array")
    .action(async (dir: string, sql: string, o: { json?: boolean }) => {
      const w = await openWorkspace(dir, { readOnly: true, confined: true });
      try {
        const rows = await w.query(sql).catch((e: unknown) => {
          if (e instanceof WorkspaceError || !(e instanceof Error)) throw e;
          throw new UsageError(`query failed: ${e.message.split("\n")[0]}`);
        });
        output(!!o.json, rows, () => (rows.length ? formatTable(rows) : "(no rows)"), { rawKeys: true });
      } finally {
        w.close();
      }
    });

  ws.command("export <dir> <tableOrSql> <file>")
    .description("Export a table or a SELECT to Parquet")
    .action(async (dir: string, what: string, file: string) => {
      const w = await openWorkspace(dir, { readOnly: true });
      try {
        process.stdout.write(`${await exportParquet(w, what, file)}\n`);
      } finally {
        w.close();
      }
    });

  ws.command("import <dir> <file> <table>")
    .description("Import a Parquet file into a table (append by column name, or --create)")
    .option("--create", "create the table from the file's schema")
    .action(async (dir: string, file: string, table: string, o: { create?: boolean }) => {
      fileFlag("file", file, "Pass a Parquet file (openmle workspace export writes one).");
      const w = await openWorkspace(dir);
      try {
        const n = await importParquet(w, file, table, { create: o.create });
        process.stdout.write(`imported ${n} rows into ${table}\n`);
      } finally {
        w.close();
      }
    });

  registerWorkspaceSchema(ws);

  ws.command("demo [dir]")
    .description("Create a workspace, record a run with a few rows, query it and export Parquet under reports/")
    .option("--out <dir>", "where the Parquet export goes", "reports/workspace-demo")
    .action(async (dir: string | undefined, o: { out: string }) => {
      const w = await openWorkspace(dir ?? "workspaces/demo");
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
