import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { buildTask, moveIntoPlace } from "./build-task.js";
import { checkTask } from "./check-task.js";
import { ConfinedPathError } from "./confined-files.js";
import { GymError, PrepareError, TaskSpecError } from "./errors.js";
import { hashTree } from "./hash-tree.js";
import { importMlebench } from "./mlebench-import.js";
import type { TaskSpecInput } from "./task-spec.js";
import { scoreSubmission } from "./score-submission.js";
import { gatePrompt, renderGatePrompt } from "./semantic-gate.js";
import { vegaRecords, writeCsv } from "./test-helpers/raw-tables.js";

const tmp = mkdtempSync(join(tmpdir(), "gym-build-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const penguins = vegaRecords("penguins.json");
const penguinsCsv = writeCsv(join(tmp, "penguins.csv"), penguins);
const base = { id: "penguins-t", table: penguinsCsv, target: "species", metric: "accuracy", split: { kind: "stratified" as const, seed: 3 } };

/** The parent folder holds nothing but what the test expects (no temporary or half-written packages). */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.includes(".tmp-") || f.includes(".raw-") || f.includes(".old-"));
}

function status(report: Awaited<ReturnType<typeof checkTask>>, name: string) {
  return report.checks.find((c) => c.name === name);
}

describe("buildTask", () => {
  test("builds a complete package that passes its checks", async () => {
    const out = join(tmp, "pkgs", "penguins-t");
    const events: string[] = [];
    const task = await buildTask({ ...base, description: "Penguin species." }, { outDir: out, onEvent: (e) => events.push(e.type) });
    expect(events).toEqual(["build-start", "id-generated", "prepare-done", "build-done"]);
    for (const f of ["raw/penguins.csv", "utils/prepare.py", "utils/prepare_config.json", "utils/metric.py", "task.json", "data/public/train.csv", "data/public/test.csv",
      "data/public/sample_submission.csv", "data/public/description.txt", "data/private/test_answer.csv"]) expect(existsSync(join(out, f)), f).toBe(true);
    expect(task.meta).toMatchObject({ id: "penguins-t", idColumn: "id", targetColumns: ["species"], metric: "accuracy", higherIsBetter: true, taskType: "classification" });
    expect(task.meta.classes).toEqual(["Adelie", "Chinstrap", "Gentoo"]);
    expect(task.meta.nTrain! + task.meta.nTest!).toBe(penguins.length);
    expect(task.description).toMatch(/## Metric\naccuracy/);
    expect(await scoreSubmission(task, join(task.privateDir, "test_answer.csv"))).toEqual({ ok: true, score: 1 });
    const report = await checkTask(task);
    expect(report.passed).toBe(true);
    expect(report.metricValid).toBe(true);
    expect(status(report, "prepare_deterministic")?.status).toBe("pass");
    expect(leftovers(join(tmp, "pkgs"))).toEqual([]);
    // prepare.py reads the spec's fields from prepare_config.json; the judge is shown both.
    expect(JSON.parse(readFileSync(join(out, "utils", "prepare_config.json"), "utf8"))).toMatchObject({ table: "penguins.csv", target: "species", split: { kind: "stratified", seed: 3 } });
    expect(renderGatePrompt(gatePrompt(task))[1]!.content).toMatch(/## Processing config \(utils\/prepare_config\.json\)\n```json\n\{\n {2}"table": "penguins\.csv"/);
  }, 300_000);

  test("a group split keeps each group on one side; a time split puts the latest rows in test", async () => {
    const cars = writeCsv(join(tmp, "cars.csv"), vegaRecords("cars.json"));
    const [g, t] = await Promise.all([
      buildTask({ ...base, id: "by-island", split: { kind: "group", groupColumn: "island", seed: 1 } }, { outDir: join(tmp, "by-island") }),
      buildTask({ id: "by-year", table: cars, target: "miles_per_gallon", metric: "mae", drop: ["name"], split: { kind: "time", timeColumn: "year" } }, { outDir: join(tmp, "by-year") }),
    ]);
    const col = (file: string, name: string) => {
      const [head, ...rows] = readFileSync(file, "utf8").trim().split("\n");
      const i = head!.split(",").indexOf(name);
      return rows.map((r) => r.split(",")[i]!);
    };
    const trainIslands = new Set(col(join(g.publicDir, "train.csv"), "island"));
    expect(col(join(g.publicDir, "test.csv"), "island").some((x) => trainIslands.has(x))).toBe(false);
    const trainYears = col(join(t.publicDir, "train.csv"), "year").sort();
    const testYears = col(join(t.publicDir, "test.csv"), "year").sort();
    expect(testYears[0]! >= trainYears.at(-1)!).toBe(true);
  }, 300_000);

  test("planted leakage is caught with evidence (a recoded target, a rescaled target)", async () => {
    const code: Record<string, number> = { Adelie: 0, Chinstrap: 1, Gentoo: 2 };
    const leakyCls = writeCsv(join(tmp, "leaky-cls.csv"), penguins.map((r) => ({ ...r, species_code: r.species === null ? null : code[String(r.species)]! })));
    const cars = vegaRecords("cars.json").map((r) => ({ ...r, km_per_litre: r.miles_per_gallon === null ? null : Number(r.miles_per_gallon) * 0.425144 }));
    const leakyReg = writeCsv(join(tmp, "leaky-reg.csv"), cars);
    const [a, b] = await Promise.all([
      buildTask({ ...base, id: "leak-cls", table: leakyCls }, { outDir: join(tmp, "leak-cls") }),
      buildTask({ id: "leak-reg", table: leakyReg, target: "miles_per_gallon", metric: "rmse", drop: ["name"] }, { outDir: join(tmp, "leak-reg") }),
    ]);
    const [ra, rb] = await Promise.all([checkTask(a, { determinism: false }), checkTask(b, { determinism: false })]);
    expect(status(ra, "target_leakage")).toMatchObject({ status: "fail", evidence: { feature: "species_code" } });
    expect(status(rb, "target_leakage")).toMatchObject({ status: "fail", evidence: { feature: "km_per_litre", score: 1 } });
    expect(ra.passed || rb.passed).toBe(false);
  }, 300_000);

  test("a degenerate target (one class) is caught", async () => {
    const adelie = writeCsv(join(tmp, "adelie.csv"), penguins.filter((r) => r.species === "Adelie"));
    const task = await buildTask({ ...base, id: "one-class", table: adelie }, { outDir: join(tmp, "one-class") });
    const report = await checkTask(task, { determinism: false });
    expect(status(report, "degenerate_target")).toMatchObject({ status: "fail", evidence: { classes: 1 } });
    expect(status(report, "trivial_rule")?.status).toBe("fail");
    expect(report.metricValid).toBe(false);
  }, 300_000);

  const bad = join(tmp, "bad");
  test.each<[string, TaskSpecInput, unknown, RegExp]>([
    ["a missing target column", { ...base, target: "genus" }, PrepareError, /target column 'genus' is not in raw\/penguins\.csv.*Fix: set the spec's target/],
    ["an unknown metric", { ...base, metric: "auc" }, TaskSpecError, /unknown metric "auc"\. Fix: use one of accuracy/],
    ["empty data", { ...base, table: "EMPTY" }, PrepareError, /raw\/empty\.csv has no rows\. Fix:/],
    ["a missing table", { ...base, table: "/nonexistent/raw.csv" }, TaskSpecError, /\/nonexistent\/raw\.csv does not exist\. Fix:/],
    ["a FIFO among the files", { ...base, fileColumn: "f", filesDir: "FIFO" }, ConfinedPathError, /filesDir \S+: pipe is a FIFO, not a regular file\. Fix:/],
    ["a link out among the files", { ...base, fileColumn: "f", filesDir: "LINK" }, ConfinedPathError, /filesDir \S+: x\.png is a link to \/etc\/passwd, outside/],
  ])("%s names the file and the fix and leaves nothing behind", async (_name, spec, cls, message) => {
    mkdirSync(bad, { recursive: true });
    if (spec.filesDir === "FIFO" || spec.filesDir === "LINK") {
      const files = join(tmp, `files-${spec.filesDir}`);
      mkdirSync(files, { recursive: true });
      if (spec.filesDir === "FIFO") execFileSync("mkfifo", [join(files, "pipe")]);
      else symlinkSync("/etc/passwd", join(files, "x.png"));
      spec = { ...spec, filesDir: files };
    }
    if (spec.table === "EMPTY") {
      writeFileSync(join(tmp, "empty.csv"), "species,island\n");
      spec = { ...spec, table: join(tmp, "empty.csv") };
    }
    const err = await buildTask(spec, { outDir: join(bad, "pkg") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(cls);
    expect((err as Error).message).toMatch(message);
    expect(existsSync(join(bad, "pkg"))).toBe(false);
    expect(leftovers(bad)).toEqual([]);
  });
});

describe("a failed build leaves no half-built package", () => {
  test("a failing rebuild over an existing package (--force) keeps the old one, byte for byte", async () => {
    const out = join(tmp, "keep", "pkg");
    await buildTask({ ...base, id: "keep" }, { outDir: out });
    const before = hashTree(out, ["."]);
    const err = await buildTask({ ...base, id: "keep", target: "genus" }, { outDir: out, overwrite: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrepareError);
    expect(hashTree(out, ["."])).toBe(before);
    expect(leftovers(join(tmp, "keep"))).toEqual([]);
  }, 300_000);

  test("when the swap into place fails, the previous package is put back", () => {
    const dir = join(tmp, "swap");
    mkdirSync(join(dir, "pkg"), { recursive: true });
    writeFileSync(join(dir, "pkg", "task.json"), "{}");
    const err = (() => {
      try {
        moveIntoPlace(join(dir, "pkg.tmp-vanished"), join(dir, "pkg"), true);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(GymError);
    expect(readFileSync(join(dir, "pkg", "task.json"), "utf8")).toBe("{}");
    expect(readdirSync(dir)).toEqual(["pkg"]);
  });
});

describe("importMlebench", () => {
  const comp = join(import.meta.dirname, "test-helpers", "penguins-comp");
  const raw = join(tmp, "comp-raw");
  mkdirSync(raw, { recursive: true });
  writeCsv(join(raw, "penguins.csv"), penguins);

  test("converts a competition folder and keeps its leaderboard", async () => {
    const task = await importMlebench(comp, { raw, outDir: join(tmp, "imported", "penguins-comp") });
    expect(task.meta).toMatchObject({ id: "penguins-comp", competitionId: "penguins-comp", higherIsBetter: true, targetColumns: ["species"], metric: "mlebench:penguins-comp" });
    expect(readFileSync(join(task.dir, "leaderboard.csv"), "utf8")).toMatch(/^scoreNullable,teamId/);
    expect(existsSync(join(task.dir, "data", "private", "test_answer.csv"))).toBe(true);
    const [self, sample] = await Promise.all([scoreSubmission(task, join(task.privateDir, "test_answer.csv")), scoreSubmission(task, join(task.publicDir, "sample_submission.csv"))]);
    expect(self).toEqual({ ok: true, score: 1 });
    expect(sample.ok && sample.score < 0.6).toBe(true);
  }, 300_000);

  test("a prepare.py that raises names the file and leaves no package", async () => {
    const broken = join(tmp, "broken-comp");
    mkdirSync(broken, { recursive: true });
    for (const f of ["description.md", "grade.py", "config.yaml"]) writeFileSync(join(broken, f), readFileSync(join(comp, f)));
    writeFileSync(join(broken, "prepare.py"), "def prepare(raw, public, private):\n    raise ValueError('raw/train.zip not found')\n");
    const err = await importMlebench(broken, { raw, outDir: join(tmp, "imported", "broken-comp") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrepareError);
    expect((err as Error).message).toMatch(/utils\/prepare\.py raised ValueError: raw\/train\.zip not found\. Fix:/);
    expect(existsSync(join(tmp, "imported", "broken-comp"))).toBe(false);
    expect(leftovers(join(tmp, "imported"))).toEqual([]);
  });
});
