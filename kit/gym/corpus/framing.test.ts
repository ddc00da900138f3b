import { describe, expect, it } from "vitest";
import { TaskSpec } from "../task-spec.js";
import { fnv1a, frameCandidate, FramingConfig, nameScore, slug } from "./framing.js";
import type { Candidate, ColumnProfile, Framing, TableProfile } from "./types.js";

const cand = (id: string, hints?: Candidate["hints"]): Candidate => ({
  id,
  source: "r",
  package: "r-cran-test",
  version: "1.0-1",
  object: "Obj",
  licence: "GPL-2",
  description: "A test data set",
  ...(hints ? { hints } : {}),
});
const num = (name: string, nUnique: number, extra: Partial<ColumnProfile> = {}): ColumnProfile => ({
  name,
  type: "numeric",
  nUnique,
  nMissing: 0,
  topShare: 1 / nUnique,
  ...extra,
});
const int = (name: string, nUnique: number, extra: Partial<ColumnProfile> = {}): ColumnProfile => ({
  ...num(name, nUnique, extra),
  type: "integer",
});
const cat = (name: string, nUnique: number, topShare: number, extra: Partial<ColumnProfile> = {}): ColumnProfile => ({
  name,
  type: "categorical",
  nUnique,
  nMissing: 0,
  topShare,
  meanWords: 1,
  ...extra,
});
const table = (nRows: number, columns: ColumnProfile[], kind: "table" | "ts" = "table"): TableProfile => ({
  nRows,
  kind,
  columns,
  signatures: [],
});
const framingsOf = (c: Candidate, p: TableProfile): Framing[] => {
  const r = frameCandidate(c, p);
  if ("rejected" in r) throw new Error(`rejected: ${r.rejected}`);
  return r.framings;
};

// A compact view of a framing: what each rule decided.
const view = (f: Framing) => ({
  taskId: f.taskId,
  taskType: f.taskType,
  target: f.spec.target,
  metric: f.spec.metric,
  modality: f.spec.modality,
  drop: f.spec.drop,
  split: f.spec.split?.kind,
  timeColumn: f.spec.split?.timeColumn,
  groupColumn: f.spec.split?.groupColumn,
});

describe("frameCandidate: one case per rule", () => {
  const cases: { name: string; c: Candidate; p: TableProfile; want: ReturnType<typeof view>[] }[] = [
    {
      name: "a ts object: the series value, time split on time, time_series, rmse",
      c: cand("r-datasets-nile"),
      p: table(200, [num("time", 200, { monotone: true }), num("value", 180)], "ts"),
      want: [
        { taskId: "r-datasets-nile-value", taskType: "regression", target: "value", metric: "rmse", modality: "time_series", drop: [], split: "time", timeColumn: "time", groupColumn: undefined },
      ],
    },
    {
      name: "an mts object: the first series",
      c: cand("r-datasets-eu"),
      p: table(300, [num("time", 300, { monotone: true }), num("DAX", 290), num("SMI", 290)], "ts"),
      want: [
        { taskId: "r-datasets-eu-dax", taskType: "regression", target: "DAX", metric: "rmse", modality: "time_series", drop: [], split: "time", timeColumn: "time", groupColumn: undefined },
      ],
    },
    {
      // species: 3 balanced levels -> accuracy; rowname is an id; species_name names the target (a copy).
      // Regression: no response-like numeric name, so the later one (petal_width); petal_length is its proxy.
      name: "classification with an id and a proxy, plus the regression target",
      c: cand("r-datasets-iris"),
      p: table(150, [
        cat("rowname", 150, 1 / 150),
        num("sepal_length", 35),
        num("petal_length", 43, { corr: { petal_width: 0.963, sepal_length: 0.87 } }),
        num("petal_width", 22, { corr: { petal_length: 0.963, sepal_length: 0.82 } }),
        cat("species_name", 3, 1 / 3),
        cat("species", 3, 1 / 3),
      ]),
      want: [
        { taskId: "r-datasets-iris-species", taskType: "classification", target: "species", metric: "accuracy", modality: "tabular", drop: ["rowname", "species_name"], split: "stratified", timeColumn: undefined, groupColumn: undefined },
        { taskId: "r-datasets-iris-petal_width", taskType: "regression", target: "petal_width", metric: "rmse", modality: "tabular", drop: ["petal_length", "rowname"], split: "random", timeColumn: undefined, groupColumn: undefined },
      ],
    },
    {
      // medv is an exact response name (beats crim, the later column); lmedv contains it; price_copy has
      // |corr| 0.97 >= 0.95; rm at 0.70 stays. chas is a 2-level integer without a class name: no target.
      name: "regression with a name proxy and a correlation proxy",
      c: cand("r-mass-boston"),
      p: table(506, [
        num("rm", 446, { corr: { medv: 0.7 } }),
        int("chas", 2, { topShare: 0.93 }),
        num("medv", 229, { corr: { rm: 0.7, price_copy: -0.97, crim: -0.39 } }),
        num("lmedv", 229),
        num("price_copy", 229),
        num("crim", 504),
      ]),
      want: [
        { taskId: "r-mass-boston-medv", taskType: "regression", target: "medv", metric: "rmse", modality: "tabular", drop: ["lmedv", "price_copy"], split: "random", timeColumn: undefined, groupColumn: undefined },
      ],
    },
    {
      // Chick: 50 of 578 rows (>= 10 groups, <= 0.5 x rows) -> group split for both targets; Time is a time
      // word (never a regression target) but not monotone (no time split).
      name: "grouped subjects: group split on the repeated subject column",
      c: cand("r-datasets-chickweight"),
      p: table(578, [num("weight", 212), int("Time", 12), cat("Chick", 50, 0.02), cat("Diet", 4, 0.38)]),
      want: [
        { taskId: "r-datasets-chickweight-diet", taskType: "classification", target: "Diet", metric: "accuracy", modality: "tabular", drop: [], split: "group", timeColumn: undefined, groupColumn: "Chick" },
        { taskId: "r-datasets-chickweight-weight", taskType: "regression", target: "weight", metric: "rmse", modality: "tabular", drop: [], split: "group", timeColumn: undefined, groupColumn: "Chick" },
      ],
    },
    {
      name: "a text set: the label of the texts, binary -> roc_auc, text modality",
      c: cand("npm-reviews"),
      p: table(1000, [{ name: "text", type: "text", nUnique: 1000, nMissing: 0, topShare: 0.001, meanWords: 18 }, cat("label", 2, 0.5)]),
      want: [
        { taskId: "npm-reviews-label", taskType: "classification", target: "label", metric: "roc_auc", modality: "text", drop: [], split: "stratified", timeColumn: undefined, groupColumn: undefined },
      ],
    },
    {
      name: "an image set: a file column -> image; 10 classes -> accuracy",
      c: cand("debian-mnist"),
      p: table(2000, [{ name: "image", type: "file", nUnique: 2000, nMissing: 0, topShare: 0.0005 }, cat("label", 10, 0.11)]),
      want: [
        { taskId: "debian-mnist-label", taskType: "classification", target: "label", metric: "accuracy", modality: "image", drop: [], split: "stratified", timeColumn: undefined, groupColumn: undefined },
      ],
    },
    {
      // status: largest class 0.7 > 0.6 -> macro_f1; a datetime column -> time split (classification stays
      // tabular); the monotone integer year of the second case is a time index, not an id.
      name: "imbalanced multi-class on a datetime index",
      c: cand("r-test-events"),
      p: table(400, [{ name: "date", type: "datetime", nUnique: 400, nMissing: 0, topShare: 0.0025 }, cat("status", 3, 0.7)]),
      want: [
        { taskId: "r-test-events-status", taskType: "classification", target: "status", metric: "macro_f1", modality: "tabular", drop: [], split: "time", timeColumn: "date", groupColumn: undefined },
      ],
    },
    {
      name: "a monotone year column: time split, a regression on it is time_series",
      c: cand("r-test-yearly"),
      p: table(160, [int("year", 160, { monotone: true }), num("income", 160, { corr: { year: 0.98 } })]),
      want: [
        { taskId: "r-test-yearly-income", taskType: "regression", target: "income", metric: "rmse", modality: "time_series", drop: [], split: "time", timeColumn: "year", groupColumn: undefined },
      ],
    },
    {
      // Hints beat every rule: the target (a 3-level integer), the metric (mae makes it regression), drop,
      // split (random though there is a datetime column) and modality.
      name: "hints override target, metric, drop, split and modality",
      c: cand("r-test-hinted", { targets: ["grade"], metric: "mae", drop: ["z"], split: { kind: "random" }, modality: "other" }),
      p: table(300, [{ name: "when", type: "datetime", nUnique: 300, nMissing: 0, topShare: 0.003 }, num("z", 100), int("grade", 3, { topShare: 0.4 }), cat("species", 3, 0.34)]),
      want: [
        { taskId: "r-test-hinted-grade", taskType: "regression", target: "grade", metric: "mae", modality: "other", drop: ["z"], split: "random", timeColumn: undefined, groupColumn: undefined },
      ],
    },
  ]; // prettier-ignore

  it.each(cases)("$name", ({ c, p, want }) => {
    const got = framingsOf(c, p);
    expect(got.map(view)).toEqual(want);
    for (const f of got) {
      expect(f.candidate).toBe(c.id);
      expect(() => TaskSpec.parse({ ...f.spec, table: "x.csv" })).not.toThrow();
      expect(f.spec.split?.seed).toBe(fnv1a(f.taskId) % 2 ** 31);
      expect(f.spec.source).toBe(`r-cran-test 1.0-1: Obj`);
      expect(f.spec.licence).toBe("GPL-2");
      expect(f.spec.description).toContain(f.spec.target);
    }
  });

  it.each([
    { name: "too few rows", p: table(149, [num("y", 100), cat("class", 2, 0.5)]), reason: /149 rows, fewer than the 150/ },
    {
      // name: unique strings (an id); flag: 2 levels but 0.99 majority; x: 5 values (< 10 distinct).
      name: "no usable target",
      p: table(500, [cat("name", 500, 0.002), cat("flag", 2, 0.99), num("x", 5)]),
      reason: /^no usable target/,
    },
    { name: "a hinted target that is not a column", p: table(500, [num("a", 400)]), hints: { targets: ["b"] }, reason: /hinted target b is not a column/ },
  ])("rejects: $name", ({ p, reason, hints }) => {
    const r = frameCandidate(cand("r-x", hints), p);
    expect("rejected" in r && r.rejected).toMatch(reason);
  }); // prettier-ignore

  it("a repeated column named id is the group and the generated ids take another name", () => {
    const p = table(180, [num("Reaction", 180), int("Days", 10), cat("id", 18, 1 / 18)]);
    const [f] = framingsOf(cand("r-lme4-sleepstudy"), p);
    expect(f!.spec).toMatchObject({ target: "Reaction", idColumn: "row_id", split: { kind: "group", groupColumn: "id" } });
  });

  it("a feature named x is kept; a row-name X (unique) is dropped", () => {
    const kept = framingsOf(cand("r-x1"), table(200, [num("x", 50), num("y", 180)]));
    expect(kept.map((f) => [f.spec.target, f.spec.drop])).toEqual([["y", []]]);
    const rows = framingsOf(cand("r-x2"), table(200, [int("X", 200, { monotone: true }), num("y", 180)]));
    expect(rows.map((f) => [f.spec.target, f.spec.drop])).toEqual([["y", ["X"]]]);
  });

  it("a table above maxRows gets the deterministic subsample; a skipped target lacks rows", () => {
    const [big] = framingsOf(cand("r-big"), table(10_000, [num("price", 5000), num("carat", 300)]));
    expect(big!.spec.maxRows).toBe(4000);
    // species has 120 non-missing values of 200 rows (< 150): only the regression is framed.
    const [only, ...rest] = framingsOf(cand("r-gaps"), table(200, [cat("species", 3, 0.4, { nMissing: 80 }), num("mass", 150)]));
    expect([only!.spec.target, rest.length]).toEqual(["mass", 0]);
  });

  it("is deterministic: the same inputs give equal framings; seeds differ by task id", () => {
    const p = table(600, [num("weight", 212), cat("Diet", 4, 0.38), cat("Chick", 50, 0.02)]);
    const a = framingsOf(cand("r-c"), p);
    expect(framingsOf(cand("r-c"), structuredClone(p))).toEqual(a);
    expect(a[0]!.spec.split!.seed).not.toBe(a[1]!.spec.split!.seed);
  });
});

describe("helpers", () => {
  it.each([
    { s: "", h: 0x811c9dc5 },
    { s: "a", h: 0xe40c292c },
    { s: "foobar", h: 0xbf9cf968 },
  ])("fnv1a($s) = $h (the published FNV-1a 32-bit test vectors)", ({ s, h }) => expect(fnv1a(s)).toBe(h));
  it.each([
    { s: "Sepal.Length", out: "sepal.length" },
    { s: "log price (USD)", out: "log-price-usd" },
    { s: "__x", out: "x" },
    { s: "%%", out: "target" },
  ])("slug($s) = $out", ({ s, out }) => expect(slug(s)).toBe(out));
  it.each([
    { n: "Species", score: 2 },
    { n: "cell_type", score: 1 },
    { n: "type2", score: 1 },
    { n: "typeface", score: 0 },
  ])("nameScore($n) = $score", ({ n, score }) => expect(nameScore(n, ["species", "type"])).toBe(score));
  it("FramingConfig is strict with the documented defaults", () => {
    expect(FramingConfig.parse({})).toMatchObject({ minRows: 150, proxyCorr: 0.95, maxRows: 4000, macroF1TopShare: 0.6 });
    expect(() => FramingConfig.parse({ minrows: 1 })).toThrow();
  });
});
