// The reference zoo as data and text (no sandbox): its entries, its hash, the output it shapes per metric, and
// the settings its program carries. The zoo run in the real sandbox: reference-zoo-sandbox.test.ts.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { TaskMeta, TaskPackage } from "../gym/index.js";
import { ReferenceZooConfig, ZOO_ENTRIES, ZOO_VERSION, zooHash, zooOutput, zooProgram } from "./index.js";

const task = (meta: Partial<TaskMeta>, dir = ""): TaskPackage => ({
  dir,
  publicDir: join(dir, "data", "public"),
  privateDir: join(dir, "data", "private"),
  description: "",
  meta: {
    id: "t", name: "t", modality: "tabular", taskType: "classification", idColumn: "id", targetColumns: ["y"],
    trainTarget: "y", metric: "accuracy", higherIsBetter: true,
    files: { train: "train.csv", test: "test.csv", sampleSubmission: "sample_submission.csv" }, ...meta,
  },
});

describe("the zoo's entries", () => {
  test("20 to 30 entries with unique, CSV-safe names; the constant first; each has a model", () => {
    expect(ZOO_ENTRIES.length).toBeGreaterThanOrEqual(20);
    expect(ZOO_ENTRIES.length).toBeLessThanOrEqual(30);
    expect(new Set(ZOO_ENTRIES.map((e) => e.name)).size).toBe(ZOO_ENTRIES.length);
    for (const e of ZOO_ENTRIES) {
      expect(e.name).toMatch(/^[a-z0-9.-]+$/);
      expect(e.classifier ?? e.regressor).not.toBeNull();
    }
    expect(ZOO_ENTRIES[0]!.name).toBe("constant");
  });

  test("every entry with randomness takes the seed; forests and xgboost run on one thread", () => {
    for (const e of ZOO_ENTRIES) {
      for (const code of [e.classifier, e.regressor].filter((c): c is string => c !== null)) {
        if (/Forest|Trees|Boosting|Tree|MLP|XGB|SVC|AdaBoost/.test(code)) expect(code, e.name).toMatch(/random_state=SEED/);
        if (/Forest|ExtraTrees|XGB/.test(code)) expect(code, e.name).toMatch(/n_jobs=1/);
      }
    }
  });
});

describe("zooHash", () => {
  test("16 hex digits, the same every call, another for any other setting", () => {
    expect(zooHash()).toMatch(/^[0-9a-f]{16}$/);
    expect(zooHash()).toBe(zooHash({}));
    expect(zooHash({ seed: 0, entryTimeoutS: 60 })).toBe(zooHash()); // the defaults, spelled out
    const others = [{ seed: 1 }, { entryTimeoutS: 30 }, { maxKernelRows: 10 }, { maxBoostWork: 1 }, { pixels: 8 }];
    expect(new Set([zooHash(), ...others.map((c) => zooHash(c))]).size).toBe(others.length + 1);
  });
  test("the config is strict", () => {
    expect(() => ReferenceZooConfig.parse({ seeds: 1 })).toThrow();
    expect(ZOO_VERSION).toBe(1);
  });
});

describe("zooOutput: the submission's shape", () => {
  test.each([
    [{ metric: "accuracy" }, "label"],
    [{ metric: "roc_auc" }, "proba_binary"],
    [{ metric: "log_loss", targetColumns: ["a", "b", "c"] }, "proba_multi"],
    [{ metric: "map_at_k" }, "ranking"],
    [{ metric: "rmse", taskType: "regression" as const }, "value"],
    [{ metric: "qwk" }, "value"],
    [{ metric: "custom", metricKind: "rmsle", taskType: "regression" as const }, "value"],
    [{ metric: "custom", targetColumns: ["a", "b"] }, "proba_multi"],
    [{ metric: "custom", taskType: "classification" as const }, "label"],
    [{ metric: "custom", taskType: "regression" as const }, "value"],
  ])("%j → %s", (meta, want) => expect(zooOutput(task(meta))).toBe(want));

  test("a built package's prepare_config.json decides, and gives the ranking's k", () => {
    const dir = mkdtempSync(join(tmpdir(), "zoo-out-"));
    mkdirSync(join(dir, "utils"));
    writeFileSync(join(dir, "utils", "prepare_config.json"), JSON.stringify({ output: "ranking", k: 5 }));
    const t = task({ metric: "accuracy" }, dir);
    expect(zooOutput(t)).toBe("ranking");
    expect(zooProgram(t)).toMatch(/\\"output\\":\\"ranking\\",.*\\"k\\":5,/);
  });
});

describe("zooProgram", () => {
  const code = zooProgram(task({ columns: [{ name: "img", kind: "path", missingShare: 0, unique: 9 }] }), { seed: 7 });
  test("pins one thread before numpy loads, then the shared features, the settings, every entry, the loop", () => {
    expect(code.indexOf('os.environ[_v] = "1"')).toBeLessThan(code.indexOf("import numpy"));
    expect(code).toContain('drop = {META["id"], META["target"], *META["targets"]}'); // run-baselines.ts featureCode
    for (const e of ZOO_ENTRIES) expect(code).toContain(`("${e.name}", "${e.view}", `);
    expect(code).toMatch(/ZOO = json\.loads\(".*\\"paths\\":\[\\"img\\"\],\\"seed\\":7,/);
    expect(code).toContain('json.dump({"version": ZOO["version"], "entries": STATUS}, f)');
  });
});
