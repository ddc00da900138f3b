import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it, vi } from "vitest";
import { openWorkspace, WorkspaceError } from "../store/index.js";
import { UsageError } from "./run-cli.js";
import { registerWorkspace } from "./workspace-cmd.js";

/** `openmle workspace query <dir> <sql> --json` in this process (spawning the CLI costs seconds per call). */
async function query(dir: string, sql: string, flags: string[] = []): Promise<unknown> {
  const program = new Command().exitOverride();
  registerWorkspace(program);
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    await program.parseAsync(["workspace", "query", dir, sql, "--json", ...flags], { from: "user" });
    return JSON.parse(String(write.mock.calls.map((c) => c[0]).join("")));
  } finally {
    write.mockRestore();
  }
}

// Issue 10 point 3, through the command: `SELECT 1; COPY ... TO '<ws>/openmle.duckdb'` truncated a
// workspace to 7 bytes, and read_csv('/etc/passwd') printed the host's file.
describe("openmle workspace query is read-only", () => {
  it("refuses a COPY over the database, into its WAL and a host file read, and leaves the files as they were", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "openmle-cli-q-")), "ws");
    const w = await openWorkspace(dir);
    await w.append("runs", [{ run_id: "r1", task_id: "t", seed: 1 }]);
    w.close();
    const db = join(dir, "openmle.duckdb");
    const before = readFileSync(db);
    for (const sql of [
      `/**/ SELECT 1; COPY (SELECT 'junk' AS x) TO '${db}' (FORMAT csv)`,
      `/**/ COPY (SELECT 'junk' AS x) TO '${db}.wal' (FORMAT csv)`,
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/passwd')",
    ]) {
      const err = (await query(dir, sql).catch((e: unknown) => e)) as Error;
      // A WorkspaceError is what the CLI prints as one `openmle: ...` line with exit code 1.
      expect(err, sql).toBeInstanceOf(WorkspaceError);
      expect(err.message).toMatch(/read-only/);
      expect(err.message).not.toMatch(/root:/);
    }
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(`${db}.wal`)).toBe(false);
    expect(await query(dir, "SELECT run_id FROM runs")).toEqual([{ run_id: "r1" }]);
  });

  it("an SQL error is one line naming the problem (the CLI prints it as `openmle: ...`, exit 1), not a stack", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "openmle-cli-q-")), "ws");
    (await openWorkspace(dir)).close();
    for (const [sql, want] of [["SELEC nonsense", /syntax error at or near "SELEC"/], ["SELECT nope FROM runs", /column "nope" not found/]] as const) {
      const err = (await query(dir, sql).catch((e: unknown) => e)) as Error;
      expect(err, sql).toBeInstanceOf(UsageError);
      expect(err.message).toMatch(want);
      expect(err.message.split("\n")).toHaveLength(1);
    }
  });
});

// Issue 59.7: no time or memory limit. Each query ran on (minutes, or gigabytes); each now stops in about a second
// with one line naming the limit and the flag that raises it.
describe("openmle workspace query runs under --timeout and --memory", () => {
  const LIMITED: [string, string, string[], RegExp][] = [
    [
      "an endless cross join",
      "SELECT sum(a.range * b.range) FROM range(100000) a, range(1000000) b",
      ["--timeout", "0.5"],
      /^query stopped at its time limit \(--timeout 0\.5 s\): .* pass a larger --timeout\.$/,
    ],
    [
      "50 million distinct strings",
      "SELECT count(DISTINCT 'x' || i::VARCHAR) FROM range(50000000) t(i)",
      ["--memory", "64"],
      /^query stopped at its memory limit \(--memory 64 MiB; Out of Memory Error: .*\): .* pass a larger --memory\.$/,
    ],
    [
      "a million 1,000-character rows returned (1 GB)",
      "SELECT i, repeat('x', 1000) AS s FROM range(1000000) t(i)",
      ["--memory", "64"],
      /^query stopped: its rows take more than its memory limit \(--memory 64 MiB; [\d,]+ rows read so far\): add a LIMIT/,
    ],
    ["--timeout past a Node timer", "SELECT 1", ["--timeout", "1e12"], /^--timeout 1e12 is out of range: use a number from 0\.1/],
    ["--memory under DuckDB's floor", "SELECT 1", ["--memory", "8"], /^--memory 8 is out of range: use an integer from 16/],
  ];
  it.each(LIMITED)("%s", async (_name, sql, flags, want) => {
    const dir = join(mkdtempSync(join(tmpdir(), "openmle-cli-q-")), "ws");
    (await openWorkspace(dir)).close();
    const t = performance.now();
    const err = (await query(dir, sql, flags).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(want);
    expect(err.message.split("\n")).toHaveLength(1);
    expect(performance.now() - t).toBeLessThan(10_000);
  });
});
