// Issue 25 point 2: a spec is data. No text of a spec ever becomes code: utils/prepare.py is the template byte
// for byte and reads its config from utils/prepare_config.json; metric.py's literals round-trip any string.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { buildTask, parseSpec } from "./build-task.js";
import { checkTask } from "./check-task.js";
import { TaskSpecError } from "./errors.js";
import { packagePaths } from "./load-task.js";
import { getMetric } from "./metrics/registry.js";
import { packageHash } from "./package-hash.js";
import { prepareConfig, writePrepare, type PrepareConfig } from "./prepare-config.js";
import { pythonHelper } from "./python.js";
import type { TaskSpecInput } from "./task-spec.js";
import { hostileSpecs } from "./test-helpers/hostile-spec.js";
import { randomText, rng } from "./test-helpers/random-text.js";

const tmp = mkdtempSync(join(tmpdir(), "gym-spec-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const TEMPLATE = readFileSync(pythonHelper("prepare_template.py"));

/** Run Python code with args; its stdout parsed as JSON. */
function python<T>(code: string, args: readonly string[]): T {
  return JSON.parse(execFileSync("/usr/bin/python3", ["-c", code, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })) as T;
}

/** Import each prepare.py as prepare does and return its CONFIG (what the split code sees). */
const IMPORT_CONFIGS = `
import importlib.util, json, sys
out = []
for i, path in enumerate(sys.argv[1:]):
    spec = importlib.util.spec_from_file_location(f"prepare_{i}", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    out.append(m.CONFIG)
sys.stdout.write(json.dumps(out))
`;

/** Read a built package's config file and metric.py literals back with Python. */
const READ_BACK = `
import importlib.util, json, sys
root = sys.argv[1]
config = json.load(open(root + "/utils/prepare_config.json", encoding="utf-8"))
spec = importlib.util.spec_from_file_location("metric_module", root + "/utils/metric.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
sys.stdout.write(json.dumps({"config": config, "idColumn": m.ID_COLUMN, "columns": m.COLUMNS}))
`;

const leftovers = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe("a spec is data (random strings in every string field)", () => {
  test("fields validation forbids (id, metric, modality) are refused before anything is written", async () => {
    const r = rng(1);
    const out = join(tmp, "refused");
    for (let i = 0; i < 150; i++) {
      const field = (["id", "metric", "modality"] as const)[i % 3];
      const spec = { id: "ok", table: "/nonexistent.csv", target: "y", metric: "accuracy", [field]: randomText(r, `N${i}Z`) }; // upper case: never a valid id
      const err = await buildTask(spec as TaskSpecInput, { outDir: join(out, `p${i}`) }).catch((e: unknown) => e);
      expect(err, JSON.stringify(spec)).toBeInstanceOf(TaskSpecError);
      expect((err as Error).message).toMatch(field === "metric" ? /unknown metric/ : new RegExp(`task spec is invalid: ${field}:`));
    }
    expect(existsSync(out)).toBe(false);
  });

  test("400 random configs: prepare.py is the template byte for byte and reads each config back exactly", () => {
    const r = rng(2);
    const files: string[] = [];
    const configs: PrepareConfig[] = [];
    const nonces: string[][] = [];
    for (let i = 0; i < 400; i++) {
      const mine: string[] = [];
      const t = (o = {}) => {
        const nonce = `q${i}n${mine.length}k`;
        mine.push(nonce);
        return randomText(r, nonce, { nul: true, ...o });
      };
      const kinds = ["random", "stratified", "time", "group"] as const;
      const spec = parseSpec({
        id: "rand", table: "t.csv", target: t(), idColumn: t(), drop: Array.from({ length: Math.floor(r() * 4) }, () => t()),
        metric: "roc_auc", positiveClass: t(), fileColumn: t(), name: t(), description: t(), source: t(), licence: t(),
        split: { kind: kinds[i % 4], timeColumn: t(), groupColumn: t(), seed: Math.floor(r() * 1e6), testSize: 0.05 + r() * 0.9 },
      });
      const utils = join(tmp, "configs", String(i), "utils");
      mkdirSync(utils, { recursive: true });
      const config = prepareConfig({ ...spec, idColumn: spec.idColumn! }, t({ nul: false, exclude: "/" }), "files", getMetric(spec.metric).output);
      writePrepare(join(utils, "prepare.py"), join(utils, "prepare_config.json"), config);
      files.push(join(utils, "prepare.py"));
      configs.push(config);
      nonces.push(mine);
    }
    files.forEach((f, i) => {
      const code = readFileSync(f);
      expect(code.equals(TEMPLATE), f).toBe(true);
      for (const n of nonces[i]!) expect(code.includes(n)).toBe(false);
    });
    expect(python<PrepareConfig[]>(IMPORT_CONFIGS, files)).toEqual(configs);
  }, 120_000);

  test("8 real builds with random text in every field (columns named by it): each builds and reads back exactly", async () => {
    const r = rng(3);
    const kinds = ["random", "stratified", "time", "group"] as const;
    const cases = Array.from({ length: 8 }, (_, i) => {
      const dir = join(tmp, "real", String(i));
      mkdirSync(dir, { recursive: true });
      const nonces: string[] = [];
      // Every string may name a column, so each avoids what pandas' CSV does not round-trip (see csvHeader).
      const t = (o = {}) => {
        const nonce = `w${i}n${nonces.length}k`;
        nonces.push(nonce);
        return randomText(r, nonce, { csvHeader: true, ...o });
      };
      const [target, time, group, file] = [t(), t(), t(), t()];
      const kind = kinds[i % 4]!;
      const withFiles = i % 4 === 1;
      if (withFiles) mkdirSync(join(dir, "assets"));
      const rows = Array.from({ length: 40 }, (_, j) => {
        if (withFiles) writeFileSync(join(dir, "assets", `a${j}.txt`), `asset ${j}\n`);
        return { [target]: ["x", "y", "z"][j % 3], f: (j * 13) % 7, [time]: 1990 + j, [group]: `g${j % 8}`, ...(withFiles ? { [file]: `a${j}.txt` } : {}) };
      });
      const table = join(dir, `${t({ exclude: "/" }).slice(0, 60)}.json`);
      writeFileSync(table, JSON.stringify(rows));
      const spec: TaskSpecInput = {
        id: `real-${i}`, table, target, idColumn: t(), drop: [t(), t()], metric: "accuracy", positiveClass: t(),
        name: t(), description: t(), source: t(), licence: t(),
        ...(withFiles ? { filesDir: join(dir, "assets"), fileColumn: file } : {}),
        split: { kind, ...(kind === "time" ? { timeColumn: time } : {}), ...(kind === "group" ? { groupColumn: group } : {}), seed: i },
      };
      return { spec, nonces, out: join(tmp, "real-pkgs", `real-${i}`) };
    });
    const built = [];
    for (let i = 0; i < cases.length; i += 4)
      built.push(...(await Promise.all(cases.slice(i, i + 4).map((c) => buildTask(c.spec, { outDir: c.out })))));
    for (const [i, task] of built.entries()) {
      const { spec, nonces } = cases[i]!;
      const code = readFileSync(packagePaths(task.dir).prepare);
      expect(code.equals(TEMPLATE)).toBe(true);
      for (const n of nonces) expect(code.includes(n)).toBe(false);
      const parsed = parseSpec(spec);
      const back = python<{ config: PrepareConfig; idColumn: string; columns: string[] }>(READ_BACK, [task.dir]);
      expect(back.config).toEqual(prepareConfig({ ...parsed, idColumn: parsed.idColumn! }, basename(spec.table), spec.filesDir ? "files" : undefined, "label"));
      expect(back.idColumn).toBe(spec.idColumn);
      expect(back.columns).toEqual([spec.target]);
      expect(task.meta).toMatchObject({ name: spec.name, idColumn: spec.idColumn, targetColumns: [spec.target], source: spec.source });
      expect(task.meta.nTrain! + task.meta.nTest!).toBe(40);
    }
    // The config is part of the package: a changed config is a changed package.
    const cfg = packagePaths(built[0]!.dir).prepareConfig;
    const before = packageHash(built[0]!.dir);
    writeFileSync(cfg, readFileSync(cfg, "utf8").replace(/"seed": \d+/, '"seed": 99'));
    expect(packageHash(built[0]!.dir)).not.toBe(before);
  }, 600_000);
});

describe("the issue's payload in every string field", () => {
  const h = hostileSpecs(join(tmp, "hostile"));

  test("is refused where validation forbids it, and builds elsewhere without running; task check runs none of it", async () => {
    for (const spec of h.refused) await expect(buildTask(spec, { outDir: join(tmp, "hostile", "refused") })).rejects.toBeInstanceOf(TaskSpecError);
    const tasks = await Promise.all(h.specs.map((s) => buildTask(s.spec, { outDir: s.outDir })));
    expect(h.markers.filter(existsSync)).toEqual([]);
    for (const t of tasks) expect(readFileSync(packagePaths(t.dir).prepare).equals(TEMPLATE)).toBe(true);
    expect(tasks.map((t) => t.meta.nTrain! + t.meta.nTest!)).toEqual([48, 30]);
    // task check: metric verification, data checks, and prepare.py run twice more (determinism).
    const reports = await Promise.all(tasks.map((t) => checkTask(t)));
    for (const rep of reports) expect(rep.checks.find((c) => c.name === "prepare_deterministic")?.status).toBe("pass");
    expect(h.markers.filter(existsSync)).toEqual([]);
    expect(leftovers(join(tmp, "hostile", "pkgs")).sort()).toEqual(["hostile-a", "hostile-b"]);
  }, 600_000);
});
