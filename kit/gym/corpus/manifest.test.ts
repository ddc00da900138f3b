import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { BUILTIN_TASKS } from "../builtin/registry.js";
import { canonicalJson, loadManifest, ManifestError, manifestHash, parseManifest } from "./manifest.js";
import { buildManifest, slug, type RListing, type SourceListing } from "./sources.js";

const tmp = mkdtempSync(join(tmpdir(), "corpus-manifest-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const row = { source: "r", package: "r-cran-mass", version: "7.3", object: "Boston", licence: "GPL", description: "d" };

describe("parseManifest", () => {
  test.each([
    ["a duplicate id", [{ ...row, id: "a" }, { ...row, id: "a" }], /holds candidate a twice/],
    ["an unknown key", [{ ...row, id: "a", recipe: "x" }], /malformed at 0/],
    ["an unknown source", [{ ...row, id: "a", source: "cran" }], /malformed at 0\.source/],
    ["an id that is no folder name", [{ ...row, id: "A b" }], /malformed at 0\.id/],
    ["a misspelt hint", [{ ...row, id: "a", hints: { target: ["x"] } }], /malformed at 0\.hints/],
  ])("rejects %s", (_, json, message) => {
    expect(() => parseManifest(json)).toThrow(ManifestError);
    expect(() => parseManifest(json)).toThrow(message);
  });

  test("a missing file says how to make it", () => {
    expect(() => loadManifest(join(tmp, "none.json"))).toThrow(/npx tsx scripts\/corpus-manifest.ts/);
    writeFileSync(join(tmp, "bad.json"), "{");
    expect(() => loadManifest(join(tmp, "bad.json"))).toThrow(/is not JSON/);
  });
});

describe("manifestHash", () => {
  test("canonical JSON sorts keys at every level and skips undefined", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });
  test("the key order does not change the hash; a value does", () => {
    const a = parseManifest([{ ...row, id: "a" }]);
    const b = parseManifest([{ description: "d", licence: "GPL", object: "Boston", version: "7.3", id: "a",
      package: "r-cran-mass", source: "r" }]);
    expect(manifestHash(a)).toBe(manifestHash(b));
    expect(manifestHash(a)).not.toBe(manifestHash(parseManifest([{ ...row, id: "b" }])));
  });
});

type Kind = RListing["kind"];
const r = (module: string, object: string, n: number, fingerprint: string, kind: Kind = "data.frame"): RListing => ({
  ...{ module, object, title: object, licence: "GPL-2", version: "1" },
  ...{ kind, n, fingerprint, error: "" },
});
const listing: SourceListing = {
  r: [
    r("MASS", "Boston", 506, "506|1"),
    r("mlbench", "BostonHousing", 506, "506|1"),
    r("datasets", "CO2", 84, "84|1"),
    r("datasets", "co2", 468, "468|2", "ts"),
    r("datasets", "Titanic", 4, "", "other"),
  ],
  py: [{ source: "sklearn", object: "iris", n: 150, title: "Load the iris dataset." }],
  debian: { "r-cran-mass": "7.3-60-2", "python3-sklearn": "1.2.1" },
  npm: {},
};

describe("buildManifest", () => {
  test("keeps tables of >= 100 rows, names ids, groups equal fingerprints into one study", () => {
    const m = buildManifest(listing, { study: { "sklearn-iris": "iris" } });
    expect(m.map((c) => [c.id, c.study])).toEqual([
      ["r-datasets-co2", undefined],
      ["r-mass-boston", "r-mass-boston"],
      ["r-mlbench-bostonhousing", "r-mass-boston"],
      ["sklearn-iris", "iris"],
    ]);
    expect(m[1]).toMatchObject({ package: "r-cran-mass", version: "7.3-60-2", licence: "GPL-2 (R package MASS 1)" });
  });
  test("a hint naming no candidate is an error", () => {
    expect(() => buildManifest(listing, { hints: { "r-mass-bostn": { targets: ["medv"] } } })).toThrow(
      /names r-mass-bostn under "hints"/,
    );
  });
  test.each([
    ["Boston", "boston"],
    ["Pima.tr", "pima-tr"],
    ["sunspot.month", "sunspot-month"],
    ["_x_", "x"],
  ])("slug(%s) = %s", (s, want) => expect(slug(s)).toBe(want));
});

describe("the committed manifest's studies", () => {
  test("data of a built-in task carries that task's id as its study", () => {
    const m = loadManifest();
    const study = (id: string) => m.find((c) => c.id === id)?.study;
    for (const [id, want] of [
      ["npm-vega-penguins", "penguins"],
      ["r-palmerpenguins-penguins", "penguins"],
      ["npm-vega-cars", "cars"],
      ["r-datasets-co2", "co2-concentration"],
      ["sklearn-breast-cancer", "breast-cancer"],
      ["sklearn-digits", "digits"],
      ["debian-fashion-mnist", "fashion-mnist"],
      ["npm-spam-assassin", "spam-assassin"],
    ])
      expect([id, study(id)]).toEqual([id, want]);
    const builtins = new Set(Object.keys(BUILTIN_TASKS));
    const used = new Set(m.map((c) => c.study).filter((s) => s && builtins.has(s)));
    expect([...used].sort()).toEqual(
      ["breast-cancer", "cars", "co2-concentration", "diabetes", "digits", "fashion-mnist", "penguins",
        "seattle-weather", "spam-assassin", "wine"],
    );
  });
});
