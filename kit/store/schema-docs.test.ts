import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCHEMA_DOC_BEGIN, SCHEMA_DOC_END, SCHEMA_DOCS, TABLES, openWorkspace, schemaMarkdown, tableDoc, type Workspace,
} from "./index.js";

// The documented schema (kit/store/columns/) against a fresh workspace's real DuckDB schema.
let ws: Workspace;
let actual: Map<string, Map<string, string>>;
beforeAll(async () => {
  ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-schema-docs-")), "ws"));
  const rows = await ws.query<{ table_name: string; column_name: string; data_type: string }>(
    "SELECT table_name, column_name, data_type FROM information_schema.columns ORDER BY table_name, ordinal_position",
  );
  actual = new Map();
  for (const r of rows) {
    if (!actual.has(r.table_name)) actual.set(r.table_name, new Map());
    actual.get(r.table_name)!.set(r.column_name, r.data_type);
  }
});
afterAll(() => ws.close());

/** A description says something: at least a few words, not a restated name. */
const MIN_CHARS = 12;

describe("every table and column of the workspace is described", () => {
  it("documents exactly the tables a fresh workspace has (schema_meta and TABLES)", () => {
    expect(SCHEMA_DOCS.map((t) => t.table).sort()).toEqual([...actual.keys()].sort());
    expect(SCHEMA_DOCS.map((t) => t.table)).toEqual(["schema_meta", ...TABLES]);
  });

  it.each([...new Set(["schema_meta", ...TABLES])])("%s: every column has a description, and no description names a missing column", (table) => {
    const doc = tableDoc(table)!;
    const cols = actual.get(table)!;
    const missing = [...cols.keys()].filter((c) => !doc.columns.some((d) => d.name === c));
    const extra = doc.columns.map((d) => d.name).filter((c) => !cols.has(c));
    expect({ table, missing, extra }).toEqual({ table, missing: [], extra: [] });
    // The documented order is the schema's, and each type is what DuckDB reports.
    expect(doc.columns.map((d) => d.name)).toEqual([...cols.keys()]);
    expect(doc.columns.map((d) => [d.name, d.type])).toEqual([...cols.entries()]);
  });

  it("no description is empty or too short, and each table has an owner and a description", () => {
    const short = SCHEMA_DOCS.flatMap((t) =>
      t.columns.filter((c) => c.description.trim().length < MIN_CHARS).map((c) => `${t.table}.${c.name}`),
    );
    expect(short).toEqual([]);
    for (const t of SCHEMA_DOCS) {
      expect(t.description.length, t.table).toBeGreaterThan(40);
      expect(["store", "gym", "sandbox", "llm", "evo", "erl", "reproduce", "experiment"]).toContain(t.owner);
      expect(new Set(t.columns.map((c) => c.name)).size, `${t.table}: a column described twice`).toBe(t.columns.length);
    }
  });

  it("docs/schema.md's generated section is what `npx tsx scripts/schema-doc.ts` writes", () => {
    const readme = readFileSync(new URL("../../docs/schema.md", import.meta.url), "utf8");
    const begin = readme.indexOf(SCHEMA_DOC_BEGIN);
    const end = readme.indexOf(SCHEMA_DOC_END);
    expect(begin, "the README has the begin marker").toBeGreaterThanOrEqual(0);
    expect(end, "the README has the end marker after it").toBeGreaterThan(begin);
    const section = readme.slice(begin + SCHEMA_DOC_BEGIN.length, end).trim();
    expect(section, "stale: run `npx tsx scripts/schema-doc.ts`").toBe(schemaMarkdown(SCHEMA_DOCS).trim());
  });
});
