import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { checkTask } from "../check-task.js";
import { UnknownTaskError } from "../errors.js";
import { resolveTask } from "../resolve-task.js";
import { listBuiltinTasks } from "./build-builtin.js";
import { materializeRaw } from "./materialize-raw.js";
import { BUILTIN_TASKS } from "./registry.js";

// Builds the whole built-in suite once into a temporary cache and checks every task (the CI gate
// of issue 3).
const cache = mkdtempSync(join(tmpdir(), "gym-builtin-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe("built-in suite", () => {
  const suite = listBuiltinTasks();

  test("has at least 10 tasks covering the required modalities, each with a source and a licence", () => {
    expect(suite.length).toBeGreaterThanOrEqual(10);
    expect(new Set(suite.map((t) => t.modality))).toEqual(new Set(["tabular", "image", "text", "time_series", "audio"]));
    expect(new Set(suite.map((t) => t.taskType))).toEqual(new Set(["classification", "regression"]));
    for (const t of suite) expect(t.source.length * t.licence.length, t.id).toBeGreaterThan(0);
  });

  test("concurrent resolves of one id are safe", async () => {
    const [w1, w2] = await Promise.all([resolveTask("wine", { cacheDir: cache }), resolveTask("wine", { cacheDir: cache })]);
    expect(w1.dir).toBe(w2.dir);
    expect(readdirSync(cache).filter((f) => f.includes(".tmp-") || f.includes(".raw-"))).toEqual([]);
  }, 300_000);

  // One test per task (sequential; each task's harnesses already run concurrently).
  test.each(suite.map((t) => t.id))("%s builds and passes its checks", async (id) => {
    const task = await resolveTask(id, { cacheDir: cache });
    const r = await checkTask(task);
    expect(r.checks.filter((c) => c.status === "fail").map((c) => `${c.name}: ${c.message}`)).toEqual([]);
    expect(r.metricValid).toBe(true);
    expect(task.meta.nTrain).toBeGreaterThanOrEqual(100);
    expect(task.meta.nTrain! + task.meta.nTest!).toBeLessThanOrEqual(3000);
    const ext = { image: ".png", audio: ".wav" }[task.meta.modality as string];
    if (ext && task.meta.files.extra) {
      expect(readdirSync(join(task.publicDir, "train")).filter((f) => f.endsWith(ext)).length).toBe(task.meta.nTrain);
      expect(readdirSync(join(task.publicDir, "test")).filter((f) => f.endsWith(ext)).length).toBe(task.meta.nTest);
    }
    const again = await resolveTask(id, { cacheDir: cache }); // from the cache, no rebuild
    expect(existsSync(join(again.dir, "task.json"))).toBe(true);
  }, 300_000);

  test("spoken-digits: the synthesis is byte-identical across runs, and test speakers never occur in training", async () => {
    const raw = { ...BUILTIN_TASKS["spoken-digits"].raw, accents: ["en-us"], variants: ["m1", "f2"], takes: 1 };
    const [a, b] = [mkdtempSync(join(cache, ".synth-")), mkdtempSync(join(cache, ".synth-"))];
    const [ra] = [await materializeRaw(raw, a), await materializeRaw(raw, b)];
    expect(ra.rows).toBe(20);
    const names = readdirSync(join(a, "files")).sort();
    expect(names).toEqual(readdirSync(join(b, "files")).sort());
    for (const n of ["table.csv", ...names.map((f) => join("files", f))]) expect(readFileSync(join(a, n)).equals(readFileSync(join(b, n))), n).toBe(true);
    for (const d of [a, b]) rmSync(d, { recursive: true });
    const task = await resolveTask("spoken-digits", { cacheDir: cache });
    const speakers = (f: string) => new Set(readFileSync(join(task.publicDir, f), "utf8").trim().split("\n").slice(1).map((l) => l.split(",")[2]));
    const [train, test] = [speakers("train.csv"), speakers("test.csv")];
    expect(train.size + test.size).toBe(42);
    expect([...test].filter((s) => train.has(s))).toEqual([]);
  }, 300_000);

  test("an unknown id lists the valid ones", async () => {
    const err = await resolveTask("no-such-task", { cacheDir: cache }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownTaskError);
    expect((err as Error).message).toMatch(/unknown built-in task "no-such-task"\. Fix: use one of penguins, cars/);
  });
});
