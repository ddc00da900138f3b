import { Command } from "commander";
import { describe, expect, it, vi } from "vitest";
import { SCHEMA_DOCS, SCHEMA_VERSION } from "../store/index.js";
import { UsageError } from "./run-cli.js";
import { wrapWords, registerWorkspaceSchema } from "./workspace-schema-cmd.js";

/** `openmle workspace schema …` in this process; returns what it printed. */
async function schema(...args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerWorkspaceSchema(program.command("workspace"));
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    await program.parseAsync(["workspace", "schema", ...args], { from: "user" });
    return write.mock.calls.map((c) => String(c[0])).join("");
  } finally {
    write.mockRestore();
  }
}

describe("openmle workspace schema", () => {
  it.each([
    { text: "a bb ccc", width: 4, want: ["a bb", "ccc"] },
    { text: "one  two\nthree", width: 60, want: ["one two three"] },
    { text: "abcdefgh ij", width: 3, want: ["abcdefgh", "ij"] },
    { text: "", width: 10, want: [] },
  ])("wrapWords($text, $width)", ({ text, width, want }) => expect(wrapWords(text, width)).toEqual(want));

  it("lists every table with its owner and description; --json has snake_case keys", async () => {
    const text = await schema();
    for (const t of SCHEMA_DOCS) expect(text).toMatch(new RegExp(`^${t.table}\\s+${t.owner}\\s+${t.columns.length}\\s`, "m"));
    const json = JSON.parse(await schema("--json"));
    expect(json.schema_version).toBe(SCHEMA_VERSION);
    expect(json.tables.map((t: { table: string }) => t.table)).toEqual(SCHEMA_DOCS.map((t) => t.table));
  });

  it("with a table, prints its columns; --json gives name, type and description", async () => {
    const text = await schema("cards");
    expect(text).toMatch(/^cards \(owner evo, schema v\d+\)/);
    expect(text).toMatch(/^champion_at_write\s+BOOLEAN\s+rank = 1/m);
    const json = JSON.parse(await schema("runs", "--json"));
    expect(json).toMatchObject({ table: "runs", owner: "evo", schema_version: SCHEMA_VERSION });
    expect(json.columns.find((c: { name: string }) => c.name === "champion_node_id")).toMatchObject({ type: "VARCHAR" });
  });

  it("an unknown table is a one-line usage error listing the tables", async () => {
    const err = await schema("card").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^no table "card" in the schema; tables: schema_meta, tasks, .*loop_heldout, loop_heldout_drafts, corpus_stages, corpus_tasks, reproduce_cells, experiments, experiment_runs, experiment_results, experiment_looks$/);
    expect((err as Error).message).not.toContain("\n");
  });
});
