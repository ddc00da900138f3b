import { describe, expect, it } from "vitest";
import { contentProfile, isEvenlySpaced, KEY_SEED, NA, normaliseCell } from "./content-profile.js";
import { combine32, FULL, hash32, makeSketch, sketchHashes, sketchOverlap } from "./content-sketch.js";

describe("normaliseCell", () => {
  it.each([
    [" 1.0 ", "1", 1],
    ["1e0", "1", 1],
    ["1.0000001", "1", 1],
    ["3.14159265", "3.14159", 3.14159],
    ["-0.0", "0", 0],
    ["123456789", "123457000", 123457000],
    ["TRUE", "1", 1],
    ["false", "0", 0],
    ["NA", NA, null],
    ["", NA, null],
    ["NaN", NA, null],
    ["None", NA, null],
    ["  New   York ", "new york", null],
    ["1980:1", "1980:1", null],
  ])("%j → %j", (raw, text, num) => expect(normaliseCell(raw)).toEqual({ text, num }));
});

describe("isEvenlySpaced", () => {
  it.each([
    { xs: [1, 2, 3, 4, 5], want: true, why: "a row index" },
    { xs: [1950, 1951, 1953, 1954, 1955, 1956], want: true, why: "years, one missing: 4 of 5 gaps <= 1.5" },
    { xs: [1950, 1951, 1953, 1954, 1955], want: false, why: "years, one missing of five: 3 of 4 gaps < 80%" },
    { xs: [1974, 1974.08, 1974.17, 1974.25, 1974.33], want: true, why: "monthly decimal time, 6 digits" },
    { xs: [0, 5, 10, 15, 20], want: true, why: "every 5 years" },
    { xs: [1.2, 1.9, 2.05, 3.7, 8.1], want: false, why: "measurements: 1 of 4 gaps within 1.5 × 0.15" },
    { xs: [3, 17, 20, 41, 99], want: false, why: "counts" },
    { xs: [0, 1], want: true, why: "two values" },
  ])("$xs: $why", ({ xs, want }) => expect(isEvenlySpaced(xs)).toBe(want));
});

describe("sketches", () => {
  it("keep every hash up to the cap, then those below the (cap+1)-th smallest", () => {
    const hs = [50, 10, 40, 30, 20, 20];
    expect(makeSketch(hs, 10)).toMatchObject({ n: 6, t: FULL });
    expect([...sketchHashes(makeSketch(hs, 10))]).toEqual([10, 20, 20, 30, 40, 50]);
    const capped = makeSketch(hs, 3); // sorted 10 20 20 | 30: t = 30
    expect(capped).toMatchObject({ n: 6, t: 30 });
    expect([...sketchHashes(capped)]).toEqual([10, 20, 20]);
  });

  it("compare over the common range, as multisets, ignoring the given hashes", () => {
    const a = makeSketch([1, 2, 2, 3, 9], 10); // exact
    const b = makeSketch([2, 3, 3, 4, 5, 6], 4); // keeps 2 3 3 4, t = 5
    // Common range below 5: A {1, 2, 2, 3}, B {2, 3, 3, 4}; Σ min = 1 (2) + 1 (3) = 2.
    expect(sketchOverlap(a, b)).toEqual({ rate: 5 / FULL, a: 4, b: 4, shared: 2, distinctA: 3, distinctB: 3 });
    expect(sketchOverlap(a, b, new Set([2]))).toMatchObject({ a: 2, b: 3, shared: 1 });
  });

  it("hash32 and combine32 are deterministic; combine32 of sorted hashes is order-free by construction", () => {
    expect(hash32("abc")).toBe(hash32("abc"));
    expect(hash32("abc")).not.toBe(hash32("abd"));
    expect(hash32("abc", KEY_SEED)).not.toBe(hash32("abc"));
    const hs = [hash32("x"), hash32("y")];
    expect(combine32(Uint32Array.from(hs).sort())).toBe(combine32(Uint32Array.from([...hs].reverse()).sort()));
  });
});

describe("contentProfile", () => {
  // 40 rows: a row index, a string id repeated twice, a group, a measurement, a year, a 0/1 flag, text.
  const header = ["rowid", "id", "group", "x", "year", "flag", "note"];
  const rows = Array.from({ length: 40 }, (_, i) => [
    String(i + 1),
    `p${Math.floor(i / 2)}`,
    i % 2 ? "b" : "a",
    String(Math.round(Math.sqrt(i + 1) * 1000) / 100),
    String(1990 + (i % 20)),
    String(i % 3 === 0 ? 1 : 0),
    "a note long enough to be text rather than a label, at more than sixty characters",
  ]);
  const p = contentProfile(header, rows);

  it("types and roles each column", () => {
    expect(p.columns.map((c) => [c.name, c.kind, c.distinct, c.index, c.evenlySpaced])).toEqual([
      ["rowid", "integer", 40, true, true],
      ["id", "string", 20, false, false],
      ["group", "string", 2, false, false],
      ["x", "number", 40, false, false],
      ["year", "integer", 20, false, true],
      ["flag", "integer", 2, false, true],
      ["note", "text", 1, false, false],
    ]);
  });

  it("value sets: distinctive number columns only (x; not the index, the years or the flag)", () => {
    expect(p.values.map((v) => header[v.column])).toEqual(["x"]);
    expect(p.values[0]!.sketch).toMatchObject({ n: 40, t: FULL });
  });

  it("keys: strings and integers that are no row index, most distinct first; whole entities in the sample", () => {
    expect(p.keys.map((k) => header[k.column])).toEqual(["id", "year"]); // 20 distinct each: the string first
    const id = p.keys[0]!;
    expect(id.columns).toEqual([0, 1, 2, 3, 4, 5]); // text left out
    expect(id.rows.length).toBe(40);
    expect(id.rows.filter((r) => r[1] === "p0")).toEqual([
      [1, "p0", "a", 10, 1990, 1],
      [2, "p0", "b", 14.14, 1991, 0],
    ]);
  });

  it("a join budget keeps whole entities below a hash threshold", () => {
    // At most 6 · 9 cells: 4 entities of 2 rows (48 cells); a 5th would need 60.
    const small = contentProfile(header, rows, { maxJoinCells: 6 * 9 });
    const k = small.keys[0]!;
    expect(k.rows.length).toBe(8);
    const kept = new Set(k.rows.map((r) => r[1]));
    expect(kept.size).toBe(4);
    for (const e of kept) expect(hash32(String(e), KEY_SEED)).toBeLessThan(k.t);
    const dropped = [...new Set(rows.map((r) => r[1]!))].filter((e) => !kept.has(e));
    for (const e of dropped) expect(hash32(e, KEY_SEED)).toBeGreaterThanOrEqual(k.t);
  });

  it("row fingerprints ignore the row index, column order and names", () => {
    const renamed = contentProfile(
      ["N", "F", "Y", "X", "G", "I"],
      rows.map((r) => [r[6]!, r[5]!, r[4]!, r[3]!, r[2]!, r[1]!]),
    );
    expect(renamed.rows.h).toBe(p.rows.h);
    expect(renamed.numericRows!.h).toBe(p.numericRows!.h);
  });

  it("a long table keeps a consistent sample of its rows", () => {
    const big = contentProfile(["a", "b"], Array.from({ length: 1000 }, (_, i) => [String(i * 1.5), String(i)]), {
      rowSample: 100,
    });
    expect(big.rows.n).toBe(1000);
    expect(sketchHashes(big.rows).length).toBe(100);
    expect(big.rows.t).toBeLessThan(FULL);
  });
});
