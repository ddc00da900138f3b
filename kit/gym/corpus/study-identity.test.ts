import { describe, expect, it } from "vitest";
import { createRng } from "../../util/index.js";
import { contentProfile } from "./content-profile.js";
import { splitBase, studyEvidence, type ContentStudyItem } from "./study-identity.js";
import { mergeStudiesByContent } from "./study-merge.js";

// Constructed tables: each case is two tables that must (or must not) be one study, and the evidence expected.
interface Table {
  readonly header: string[];
  readonly rows: string[][];
}
const table = (header: string[], rows: (string | number)[][]): Table => ({
  header,
  rows: rows.map((r) => r.map(String)),
});
const item = (id: string, t: Table, over: Partial<ContentStudyItem> = {}): ContentStudyItem => ({
  id,
  study: id,
  package: "r-cran-x",
  nRows: t.rows.length,
  signatures: [],
  content: contentProfile(t.header, t.rows),
  ...over,
});
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const pad = (i: number) => String(i).padStart(3, "0");

/** 200 subjects: id, height, weight, group (3 levels), a 0/1 flag. */
function subjects(seed: number, prefix = "s"): Table {
  const rng = createRng(seed);
  return table(
    ["subject", "height", "weight", "group", "flag"],
    Array.from({ length: 200 }, (_, i) => [
      `${prefix}${pad(i)}`,
      round(150 + 40 * rng.next()),
      round(40 + 60 * rng.next()),
      ["a", "b", "c"][i % 3]!,
      rng.next() < 0.5 ? 1 : 0,
    ]),
  );
}

/** 40 entities × times 1..6 of one value; long (entity, time, value) and wide (entity, value_t1 .. value_t6). */
function longWide(): [Table, Table] {
  const rng = createRng(3);
  const v = Array.from({ length: 40 }, () => Array.from({ length: 6 }, () => round(10 + 5 * rng.next())));
  const long = table(
    ["entity", "time", "value"],
    v.flatMap((row, e) => row.map((x, t) => [`e${pad(e)}`, t + 1, x])),
  );
  const wide = table(
    ["entity", ...[1, 2, 3, 4, 5, 6].map((t) => `value_t${t}`)],
    v.map((row, e) => [`e${pad(e)}`, ...row]),
  );
  return [long, wide];
}

/** Trees 1..60 at four times a year; treat = ozone for trees ≡ 0, 1 (mod 5); size = base + growth + noise. */
function trees(times: readonly number[], keep: (tree: number) => boolean): Table {
  const rng = createRng(11);
  const base = Array.from({ length: 61 }, () => 3 * rng.next());
  const noise = createRng(times[0]!);
  const rows: (string | number)[][] = [];
  for (let tree = 1; tree <= 60; tree++)
    if (keep(tree))
      for (const t of times)
        {
          const size = round(5 + base[tree]! + 0.3 * t + 0.05 * noise.next());
          rows.push([tree, tree % 5 < 2 ? "ozone" : "control", t, size]);
        }
  return table(["tree", "treat", "time", "size"], rows);
}

/** Countries × years 2000..2009 of fertility; `noise` added to every value (a second source). */
function countryYears(noise: number, countries: number, from = 2000): Table {
  const rng = createRng(5);
  const fert = Array.from({ length: 40 }, () => Array.from({ length: 10 }, () => 1.5 + 4 * rng.next()));
  const eps = createRng(99);
  const rows: (string | number)[][] = [];
  for (let c = 0; c < countries; c++)
    for (let y = from; y < 2010; y++)
      rows.push([`country ${pad(c)}`, y, round(fert[c]![y - 2000]! + noise * (eps.next() - 0.5), 3)]);
  return table(["country", "year", "fertility"], rows);
}

const STATES = Array.from({ length: 50 }, (_, i) => `state ${pad(i)}`);
/** One row per state: its region (4 levels, the same in every table) and one unrelated number. */
function states(seed: number, column: string): Table {
  const rng = createRng(seed);
  return table(
    ["state", "region", column],
    STATES.map((s, i) => [s, ["northeast", "south", "midwest", "west"][i % 4]!, round(1000 * rng.next())]),
  );
}

/** Years 1950..2009 of a trend plus independent noise (two unrelated trending series). */
function trend(seed: number, slope: number, column: string): Table {
  const rng = createRng(seed);
  const rows = Array.from({ length: 60 }, (_, i) => [1950 + i, round(100 + slope * i + 5 * rng.next())]);
  return table(["year", column], rows);
}

const shuffle = <T>(xs: readonly T[], seed: number): T[] => {
  const rng = createRng(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

const base = subjects(1);
// Rows shuffled, columns permuted (weight, flag, subject, group, height) and renamed.
const perm = [2, 4, 0, 3, 1];
const reordered = table(
  ["w", "f", "id", "g", "h"],
  shuffle(base.rows, 2).map((r) => perm.map((c) => r[c]!)),
);
const [long, wide] = longWide();
const indexFlag = (seed: number, share: number) => {
  const rng = createRng(seed);
  return table(["id", "flag"], Array.from({ length: 200 }, (_, i) => [i + 1, rng.next() < share ? 1 : 0]));
};
// base's even rows under new names, with a column base lacks and without its flag.
const projected = (() => {
  const rng = createRng(21);
  const rows = base.rows.filter((_, i) => i % 2 === 0).map((r) => [r[1]!, r[2]!, r[3]!, r[0]!, String(rng.next())]);
  return { header: ["h", "w", "g", "id", "extra"], rows };
})();
/** Ids 1001..1200 with a second id numbered along them (a mother of two kids) and one unrelated measurement. */
const numbered = (seed: number, column: string) => {
  const rng = createRng(seed);
  return table(["kid", "mom", column], Array.from({ length: 200 }, (_, i) => [1001 + i, 500 + (i >> 1), rng.next()]));
};
/** The days of 1976 (month, day, weekday) and one unrelated measurement. */
const days = (seed: number) => {
  const rng = createRng(seed);
  return table(
    ["month", "day", "weekday", "x"],
    Array.from({ length: 366 }, (_, i) => {
      const d = new Date(Date.UTC(1976, 0, 1 + i));
      return [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCDay(), round(50 * rng.next(), 1)];
    }),
  );
};

describe("studyEvidence on constructed tables", () => {
  it.each([
    {
      name: "a subset: every 2nd row",
      a: item("a", base),
      b: item("b", { header: base.header, rows: base.rows.filter((_, i) => i % 2 === 0) }),
      want: { kind: "row-subset", over: "all", shared: 100, of: 100, rows: [200, 100], rate: 1 },
    },
    {
      name: "a reordered copy: rows shuffled, columns permuted and renamed",
      a: item("a", base),
      b: item("b", reordered),
      want: { kind: "reordered-copy", over: "all", shared: 200, of: 200, rows: [200, 200], rate: 1 },
    },
    {
      name: "a wide copy of a long table: the long side sliced by time, r = 1 over 40 entities",
      a: item("a", long),
      b: item("b", wide),
      want: {
        kind: "wide-long", key: ["entity", "entity"], by: "time", columns: ["value", "value_t1"], r: 1, matched: 40,
        identical: 1,
      },
    },
    {
      name: "a later year of one study: 55 of 60 trees again, the same treat, sizes grown",
      a: item("a", trees([1, 2, 3, 4], () => true)),
      b: item("b", trees([5, 6, 7, 8], (t) => t > 5)),
      // p0 = (22/55)² + (33/55)² = 0.52; surprise = -55·log10(0.52) = 15.62.
      want: {
        kind: "same-entities", key: ["tree", "tree"], entities: 55, keyShare: 1, label: ["treat", "treat"],
        agreement: 1,
      },
      surprise: 15.62,
    },
    {
      name: "a split: disjoint halves, one schema, split-token ids in one package",
      a: item("r-modeldata-bivariate-train", { ...base, rows: base.rows.slice(0, 100) }, { package: "modeldata" }),
      b: item("r-modeldata-bivariate-test", { ...base, rows: base.rows.slice(100) }, { package: "modeldata" }),
      want: { kind: "split", base: "r-modeldata-bivariate", package: "modeldata", columns: 5 },
    },
    {
      name: "a projection: half the rows over 4 of 5 columns, renamed, with a column of its own",
      a: item("a", base),
      b: item("b", projected),
      want: {
        kind: "projection", shared: 100, of: 100, rows: [200, 100],
        columns: [["height", "h"], ["weight", "w"], ["subject", "id"]],
      },
    },
    {
      name: "a near copy: 37 countries × 8 years of a second source, joined on (country, year)",
      a: item("a", countryYears(0, 40)),
      b: item("b", countryYears(0.3, 37, 2002)),
      want: {
        kind: "near-copy", key: ["country", "country"], by: "year = year", columns: ["fertility", "fertility"],
        matched: 296,
      },
    },
  ])("$name", ({ a, b, want, surprise }) => {
    const e = studyEvidence(a, b);
    expect(e).toMatchObject(want);
    if (surprise !== undefined) expect((e as { surprise: number }).surprise).toBeCloseTo(surprise, 2);
    if (e?.kind === "near-copy") expect((e as { r: number }).r).toBeGreaterThan(0.99);
    // The same decision either way round.
    expect(studyEvidence(b, a)?.kind).toBe(want.kind);
  });

  it.each([
    { name: "a shared column name with different values", a: subjects(1), b: subjects(8, "t") },
    { name: "a 0/1 flag and a 1..n index in both", a: indexFlag(1, 0.5), b: indexFlag(2, 0.5) },
    { name: "a 1..n index and a mostly-zero flag in both", a: indexFlag(1, 0.05), b: indexFlag(2, 0.05) },
    { name: "the same states and regions, unrelated numbers", a: states(1, "population"), b: states(2, "income") },
    { name: "the same years, two unrelated trends", a: trend(1, 2, "gdp"), b: trend(2, 1, "population") },
    { name: "the same ids, each with a second id numbered along them", a: numbered(1, "x"), b: numbered(2, "y") },
    { name: "the days of one year, unrelated measurements", a: days(1), b: days(2) },
    {
      name: "only sex and region in common",
      a: table(["sex", "region", "x"], Array.from({ length: 100 }, (_, i) => [i % 2 ? "m" : "f", `r${i % 4}`, i])),
      b: table(["sex", "region", "y"], Array.from({ length: 100 }, (_, i) => [i % 2 ? "m" : "f", `r${i % 4}`, i % 13])),
    },
    {
      name: "one schema in one package, ids without a split token",
      a: { header: base.header, rows: base.rows.slice(0, 100) },
      b: { header: base.header, rows: base.rows.slice(100) },
    },
  ])("not one study: $name", ({ a, b }) => {
    expect(studyEvidence(item("a", a), item("b", b))).toBeNull();
  });

  it("a split needs the one package: the same halves in two packages are not one study", () => {
    const half = (rows: string[][], id: string, pkg: string) => item(id, { ...base, rows }, { package: pkg });
    const [a, b] = [half(base.rows.slice(0, 100), "x-set-train", "p1"), half(base.rows.slice(100), "x-set-test", "p2")];
    expect(studyEvidence(a, b)).toBeNull();
  });
});

describe("splitBase", () => {
  it.each([
    ["r-modeldata-bivariate-train", "r-modeldata-bivariate"],
    ["r-modeldata-bivariate-val", "r-modeldata-bivariate"],
    ["r-modeldata-testing-data", "r-modeldata-data"],
    ["x_holdout2", "x"],
    ["sales-train-2", "sales"],
    ["r-mass-boston", null],
    ["r-modeldata-grants-other", null],
  ])("%s → %s", (id, want) => expect(splitBase(id)).toBe(want));
});

describe("mergeStudiesByContent", () => {
  const half = { header: base.header, rows: base.rows.filter((_, i) => i % 2 === 0) };
  const items = [
    item("c-copy", reordered),
    item("a-base", base),
    item("b-half", half, { study: "subjects" }),
    item("d-other", subjects(8, "t")),
    // Today's rules stay: one stated study; equal rows with two shared signatures (no content needed).
    item("e-stated", indexFlag(3, 0.5), { study: "subjects" }),
    item("f-sig", indexFlag(4, 0.5), { content: null, signatures: ["s1", "s2"], nRows: 77 }),
    item("g-sig", indexFlag(5, 0.5), { content: null, signatures: ["s2", "s1", "s3"], nRows: 77 }),
  ];

  it("groups by content and by today's rules; the key is the stated study, else the smallest id", () => {
    const r = mergeStudiesByContent(items);
    expect(Object.fromEntries(r.studies)).toEqual({
      "a-base": "subjects",
      "b-half": "subjects",
      "c-copy": "subjects",
      "d-other": "d-other",
      "e-stated": "subjects",
      "f-sig": "f-sig",
      "g-sig": "f-sig",
    });
    expect(r.merges.map((m) => `${m.a} ${m.b} ${m.study} ${m.evidence.kind}`)).toEqual([
      "f-sig g-sig f-sig signatures",
      "a-base b-half subjects row-subset",
      "a-base c-copy subjects reordered-copy",
      "b-half c-copy subjects row-subset",
      "b-half e-stated subjects manifest",
    ]);
  });

  it("does not depend on the input order", () => {
    const a = mergeStudiesByContent(items);
    const b = mergeStudiesByContent(shuffle(items, 4));
    expect(Object.fromEntries(b.studies)).toEqual(Object.fromEntries(a.studies));
    expect(b.merges).toEqual(a.merges);
  });

  it("a signature carried by more than trivialCarriers items of one row count is trivial", () => {
    const many = Array.from({ length: 6 }, (_, i) =>
      item(`t${i}`, indexFlag(i, 0.5), { content: null, nRows: 50, signatures: ["index", "flag"] }),
    );
    expect(new Set(mergeStudiesByContent(many).studies.values()).size).toBe(6);
    expect(new Set(mergeStudiesByContent(many.slice(0, 4)).studies.values()).size).toBe(1);
  });
});
