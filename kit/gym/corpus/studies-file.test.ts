import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  evidenceText,
  loadContentProfile,
  readStudies,
  readTableBounded,
  studiesPath,
  writeStudies,
} from "./studies-file.js";
import type { StudyEvidence } from "./study-identity.js";

const DIR = mkdtempSync(join(tmpdir(), "openmle-studies-"));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe("readTableBounded", () => {
  const file = join(DIR, "t.csv");
  // 12 bytes of header, then rows of 8 bytes: 0,x,"y" and a newline.
  writeFileSync(file, `a,b,c,quote\n${Array.from({ length: 5 }, (_, i) => `${i},x,"y"\n`).join("")}`);
  it.each([
    { bounds: { maxRows: 10, maxBytes: 1000 }, rows: 5, truncated: false },
    { bounds: { maxRows: 3, maxBytes: 1000 }, rows: 3, truncated: true },
    // 12 + 2 · 8 + 3 bytes: cut at the last newline (two whole rows), the last of them dropped as maybe half.
    { bounds: { maxRows: 10, maxBytes: 12 + 2 * 8 + 3 }, rows: 1, truncated: true },
  ])("$bounds → $rows rows", ({ bounds, rows, truncated }) => {
    const t = readTableBounded(file, bounds);
    expect(t.header).toEqual(["a", "b", "c", "quote"]);
    expect(t.rows.length).toBe(rows);
    expect(t.rows[0]).toEqual(["0", "x", "y"]);
    expect(t.truncated).toBe(truncated);
  });
});

describe("loadContentProfile", () => {
  it("computes once, caches content.json, and recomputes when table.csv changes", () => {
    const dir = join(DIR, "raw-a");
    rmSync(dir, { recursive: true, force: true });
    expect(loadContentProfile(dir)).toBeNull();
    const table = join(dir, "table.csv");
    mkdirSync(dir, { recursive: true });
    writeFileSync(table, `x,y\n${Array.from({ length: 30 }, (_, i) => `${i * 1.5},${i % 3}`).join("\n")}\n`);
    const first = loadContentProfile(dir)!;
    expect(first.nRows).toBe(30);
    // A marked cache is returned as it is while table.csv is unchanged ...
    const cache = join(dir, "content.json");
    const json = JSON.parse(readFileSync(cache, "utf8"));
    expect(json).toMatchObject({ version: 1, table: { bytes: expect.any(Number), mtime_ms: expect.any(Number) } });
    expect(json.profile.n_rows).toBe(30);
    writeFileSync(cache, JSON.stringify({ ...json, profile: { ...json.profile, n_rows: 999 } }));
    expect(loadContentProfile(dir)!.nRows).toBe(999);
    // ... and recomputed once it changes (a new mtime), or under another config.
    expect(loadContentProfile(dir, { minDistinct: 5 })!.nRows).toBe(30);
    writeFileSync(cache, JSON.stringify({ ...json, profile: { ...json.profile, n_rows: 999 } }));
    utimesSync(table, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(loadContentProfile(dir)).toEqual(first);
  });
});

describe("studies.json", () => {
  it("round-trips through the snake_case file; no file reads as null", () => {
    const dir = join(DIR, "corpus");
    expect(readStudies(dir)).toBeNull();
    mkdirSync(dir, { recursive: true });
    const merges = [
      {
        a: "r-gss-ozone",
        b: "r-x-ozone",
        study: "r-gss-ozone",
        evidence: { kind: "row-subset", over: "all", shared: 329, of: 330, rows: [330, 366], rate: 1 },
      },
      { a: "p", b: "q", study: "pima", evidence: { kind: "manifest", study: "pima" } },
    ] as const;
    writeStudies({ buildId: "corpus-1", merges }, dir);
    const file = JSON.parse(readFileSync(studiesPath(dir), "utf8"));
    expect(file.merges[0]).toEqual({
      a: "r-gss-ozone",
      b: "r-x-ozone",
      study: "r-gss-ozone",
      kind: "row-subset",
      evidence: { over: "all", shared: 329, of: 330, rows: [330, 366], rate: 1 },
    });
    expect(readStudies(dir)).toEqual({ buildId: "corpus-1", merges });
    writeFileSync(studiesPath(dir), JSON.stringify({ build_id: "x", merges: [{ a: "p", kind: "guess" }] }));
    expect(() => readStudies(dir)).toThrow(/is not a studies file/);
  });
});

describe("evidenceText", () => {
  const key = ["country", "Country Name"] as const;
  it.each<[StudyEvidence, string]>([
    [{ kind: "manifest", study: "pima" }, 'both state study "pima" in the manifest (manifest)'],
    [
      { kind: "split", base: "r-modeldata-bivariate", package: "r-cran-modeldata", columns: 3 },
      "one schema of 3 columns in r-cran-modeldata, ids equal without the split token: r-modeldata-bivariate (split)",
    ],
    [{ kind: "signatures", shared: 4, nRows: 100 }, "4 column signatures shared at 100 rows (signatures)"],
    [
      { kind: "row-subset", over: "all", shared: 329, of: 330, rows: [330, 366], rate: 1 },
      "329 of 330 rows identical; 330 and 366 rows (row-subset)",
    ],
    [
      { kind: "reordered-copy", over: "numeric", shared: 90, of: 100, rows: [2000, 2000], rate: 0.05 },
      "90 of 100 rows identical over the number columns in a 5% sample; 2000 and 2000 rows (reordered-copy)",
    ],
    [
      {
        kind: "near-copy", key, by: "year", columns: ["fertility", "1990"], r: 0.99712, matched: 180, identical: 0,
        differenced: false,
      },
      "r = 0.997 over 180 matched rows of fertility ~ 1990 joined on country ~ Country Name, by year; 0% identical " +
        "(near-copy)",
    ],
    [
      {
        kind: "same-entities", key: ["tree", "tree"], entities: 79, keyShare: 1, label: ["treat", "treat"],
        agreement: 1, surprise: 19.46, columns: ["size", "size"], r: 0.9248,
      },
      "79 shared entities of tree (100% of the smaller side); label treat agrees on 100% (chance 1e-19.5); " +
        "per-entity means of size at r = 0.925 (same-entities)",
    ],
    [
      { kind: "value-sets", pairs: [{ columns: ["a", "x"], jaccard: 0.95 }, { columns: ["b", "b"], jaccard: 0.9 }] },
      "value sets meet: a ~ x (Jaccard 0.95), b (Jaccard 0.90) (value-sets)",
    ],
  ])("%j", (e, text) => {
    expect(evidenceText(e)).toBe(text);
    expect(text).not.toMatch(/NaN|undefined/);
  });
});
