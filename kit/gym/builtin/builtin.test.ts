import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { checkTask } from "../check-task.js";
import { UnknownTaskError } from "../errors.js";
import { resolveTask } from "../resolve-task.js";
import { listBuiltinTasks } from "./build-builtin.js";

// Builds the whole built-in suite once into a temporary cache and checks every task (the CI gate
// of issue 3).
const cache = mkdtempSync(join(tmpdir(), "gym-builtin-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe("built-in suite", () => {
  const suite = listBuiltinTasks();

  test("has at least 10 tasks covering the required modalities, each with a source and a licence", () => {
    expect(suite.length).toBeGreaterThanOrEqual(10);
    expect(new Set(suite.map((t) => t.modality))).toEqual(new Set(["tabular", "image", "text", "time_series"]));
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
    if (task.meta.modality === "image" && task.meta.files.extra) {
      expect(readdirSync(join(task.publicDir, "train")).filter((f) => f.endsWith(".png")).length).toBe(task.meta.nTrain);
      expect(readdirSync(join(task.publicDir, "test")).filter((f) => f.endsWith(".png")).length).toBe(task.meta.nTest);
    }
    const again = await resolveTask(id, { cacheDir: cache }); // from the cache, no rebuild
    expect(existsSync(join(again.dir, "task.json"))).toBe(true);
  }, 300_000);

  test("an unknown id lists the valid ones", async () => {
    const err = await resolveTask("no-such-task", { cacheDir: cache }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownTaskError);
    expect((err as Error).message).toMatch(/unknown built-in task "no-such-task"\. Fix: use one of penguins, cars/);
  });
});
