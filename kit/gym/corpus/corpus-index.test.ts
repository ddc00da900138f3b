import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_IDS } from "../builtin/registry.js";
import { suited } from "../test-helpers/corpus-fixtures.js";
import {
  CorpusIndexError, CorpusMissingError, expandTaskList, readCorpusIndex, suiteTasks, UnknownSuiteError, writeCorpusIndex,
  type CorpusIndex,
} from "./corpus-index.js";
import { SEALED_RULE, SealedSuiteError } from "./sealed-suite.js";

const INDEX: CorpusIndex = {
  buildId: "b1",
  builtAt: "2026-12-02T04:00:00.000Z",
  manifestHash: "m1",
  tasks: [
    suited("r-b", { suite: "dev", modality: "text", taskType: "classification", metric: "accuracy" }),
    suited("r-a"),
    suited("r-c", { suite: "dev", headroom: { constant: 0.5, reference: 0.9, referenceModel: "gbm", normalised: 0.8 } }),
    suited("r-d", { suite: "confirm" }),
  ],
};

const tmp = () => mkdtempSync(join(tmpdir(), "openmle-corpus-index-"));

describe("the index file", () => {
  it("round-trips, snake_case on disk, tasks by id, byte-identical when written twice", async () => {
    const dir = tmp();
    const path = writeCorpusIndex(INDEX, dir);
    const text = readFileSync(path, "utf8");
    const json = JSON.parse(text);
    expect(Object.keys(json)).toEqual(["build_id", "built_at", "manifest_hash", "tasks"]);
    expect(json.tasks.map((t: { id: string }) => t.id)).toEqual(["r-a", "r-b", "r-c", "r-d"]);
    expect(json.tasks[0]).toMatchObject({ task_type: "regression", n_rows: 506, headroom: { reference_model: "ridge" } });
    const back = await readCorpusIndex(dir);
    expect(back).toEqual({ ...INDEX, tasks: [...INDEX.tasks].sort((a, b) => a.id.localeCompare(b.id)) });
    writeCorpusIndex({ ...INDEX, tasks: [...INDEX.tasks].reverse() }, dir);
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("a missing index says to run build-corpus; a broken one says what is wrong", async () => {
    const dir = tmp();
    await expect(readCorpusIndex(dir)).rejects.toThrow(CorpusMissingError);
    await expect(readCorpusIndex(dir)).rejects.toThrow(/openmle task build-corpus/);
    writeFileSync(join(dir, "index.json"), "{");
    await expect(readCorpusIndex(dir)).rejects.toThrow(CorpusIndexError);
    writeFileSync(join(dir, "index.json"), JSON.stringify({ build_id: "b", built_at: "x", manifest_hash: "m", tasks: [{ id: "t" }] }));
    await expect(readCorpusIndex(dir)).rejects.toThrow(/tasks\.0\.candidate/);
  });

  it("an index from before the dev/confirm split (suite heldout) is not mapped: it says to rebuild", async () => {
    const dir = tmp();
    const path = writeCorpusIndex(INDEX, dir);
    writeFileSync(path, readFileSync(path, "utf8").replace('"suite": "dev"', '"suite": "heldout"'));
    await expect(readCorpusIndex(dir)).rejects.toThrow(CorpusIndexError);
    await expect(readCorpusIndex(dir)).rejects.toThrow(
      /before the held-out suite was split into dev and confirm .*rebuild it with `openmle task build-corpus`/,
    );
  });

  it("reads $OPENMLE_CACHE/corpus by default", async () => {
    const cache = tmp();
    writeCorpusIndex(INDEX, join(cache, "corpus"));
    const before = process.env.OPENMLE_CACHE;
    process.env.OPENMLE_CACHE = cache;
    try {
      expect((await readCorpusIndex()).buildId).toBe("b1");
    } finally {
      if (before === undefined) delete process.env.OPENMLE_CACHE;
      else process.env.OPENMLE_CACHE = before;
    }
  });
});

describe("suites and task lists", () => {
  it.each([
    ["train", ["r-a"]],
    ["dev", ["r-b", "r-c"]],
    ["heldout", ["r-b", "r-c"]], // the old name of dev
    ["confirm", ["r-d"]], // listing is allowed; running goes through the seal
    ["all", ["r-a", "r-b", "r-c"]], // train and dev, not confirm
  ])("suiteTasks(%s)", (name, ids) => expect(suiteTasks(INDEX, name).map((t) => t.id)).toEqual(ids));

  it("entries carry modality, task type, metric, study and headroom; core is the built-in list", () => {
    expect(suiteTasks(INDEX, "dev")[1]).toEqual({
      id: "r-c", suite: "dev", modality: "tabular", taskType: "regression", metric: "rmse", study: "r-c", headroom: 0.8,
    });
    const core = suiteTasks(null, "core");
    expect(core.map((t) => t.id)).toEqual(BUILTIN_IDS);
    expect(core[0]).toMatchObject({ suite: "core", study: null, headroom: null });
    expect(() => suiteTasks(INDEX, "test")).toThrow(UnknownSuiteError);
    expect(() => suiteTasks(INDEX, "test")).toThrow(
      'unknown suite "test": the suites are core, train, dev, confirm, all (heldout is the old name of dev)',
    );
  });

  it("expandTaskList expands suite: items in place, keeps the rest, drops duplicates and blanks", async () => {
    let loads = 0;
    const loadIndex = async () => (loads++, INDEX);
    expect(await expandTaskList("penguins, suite:heldout,r-b,,./my-task", { loadIndex })).toEqual(["penguins", "r-b", "r-c", "./my-task"]);
    expect(await expandTaskList("suite:train,suite:all", { loadIndex })).toEqual(["r-a", "r-b", "r-c"]);
    expect(loads).toBe(2); // once per call, not per item
    expect(await expandTaskList("suite:core,cars", { loadIndex: () => Promise.reject(new Error("not needed")) })).toEqual([...BUILTIN_IDS]);
    await expect(expandTaskList("suite:nope", { loadIndex })).rejects.toThrow(/the suites are core, train, dev, confirm, all/);
    await expect(
      expandTaskList("suite:train", { loadIndex: () => readCorpusIndex(tmp()) }),
    ).rejects.toThrow(CorpusMissingError);
  });

  const noPeek = () => {
    throw new Error("not needed");
  };
  it.each([
    ["suite:confirm", "suite:confirm is sealed"],
    ["r-a,suite:confirm", "suite:confirm is sealed"],
    ["suite:train,r-d", "task r-d is in suite:confirm, which is sealed"], // checked against the loaded index
  ])("expandTaskList(%j) is refused in one line: %s", async (list, head) => {
    const err = await expandTaskList(list, { loadIndex: async () => INDEX, peekConfirm: noPeek }).catch((e) => e);
    expect(err).toBeInstanceOf(SealedSuiteError);
    expect(err.message).toBe(`${head}: ${SEALED_RULE}`);
    expect(err.message).not.toContain("\n");
  });

  it("plain ids and folders are checked against the index file as it is (peekConfirm), never a build", async () => {
    const opts = { loadIndex: () => Promise.reject(new Error("no build for plain ids")), peekConfirm: () => new Set(["r-d"]) };
    await expect(expandTaskList("r-a,r-d", opts)).rejects.toThrow("task r-d is in suite:confirm");
    const root = tmp();
    mkdirSync(join(root, "r-d"));
    await expect(expandTaskList(join(root, "r-d"), opts)).rejects.toThrow(`${join(root, "r-d")} (task r-d) is in suite:confirm`);
    mkdirSync(join(root, "copy"));
    writeFileSync(join(root, "copy", "task.json"), JSON.stringify({ id: "r-d" }));
    await expect(expandTaskList(join(root, "copy"), opts)).rejects.toThrow(SealedSuiteError);
    expect(await expandTaskList("r-a,./my-task", opts)).toEqual(["r-a", "./my-task"]);
    expect(await expandTaskList("penguins,suite:core", { loadIndex: noPeek, peekConfirm: noPeek })).toEqual([...BUILTIN_IDS]);
  });

  it("allowConfirm (registered experiments) expands suite:confirm and passes its tasks", async () => {
    const opts = { loadIndex: async () => INDEX, peekConfirm: noPeek, allowConfirm: true };
    expect(await expandTaskList("suite:confirm,r-d,suite:dev", opts)).toEqual(["r-d", "r-b", "r-c"]);
  });
});
