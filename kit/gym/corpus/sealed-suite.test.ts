import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GymError, TaskPackageError } from "../errors.js";
import { resolveTask } from "../resolve-task.js";
import { suited } from "../test-helpers/corpus-fixtures.js";
import { writeCorpusIndex } from "./corpus-index.js";
import {
  assertItemNotConfirm, assertNotConfirm, confirmTaskIds, itemTaskIds, peekConfirmIds, SEALED_RULE, SealedSuiteError,
  sealedSuiteError,
} from "./sealed-suite.js";

const INDEX = {
  tasks: [
    { id: "t-a", suite: "train" },
    { id: "c-b", suite: "confirm" },
    { id: "d-c", suite: "dev" },
    { id: "c-a", suite: "confirm" },
    { id: "c-c", suite: "confirm" },
    { id: "c-d", suite: "confirm" },
  ],
};
const tmp = () => mkdtempSync(join(tmpdir(), "openmle-sealed-"));

describe("the seal", () => {
  it("confirmTaskIds: the confirm suite's ids", () => {
    expect([...confirmTaskIds(INDEX)].sort()).toEqual(["c-a", "c-b", "c-c", "c-d"]);
  });

  it.each([
    [["t-a", "d-c"], null],
    [["t-a", "c-b"], "task c-b is in suite:confirm"],
    [["c-b", "c-a", "c-b"], "tasks c-a, c-b are in suite:confirm"],
    [["c-d", "c-c", "c-b", "c-a", "t-a"], "tasks c-a, c-b, c-c and 1 more are in suite:confirm"],
  ])("assertNotConfirm(%j): %s", (ids, head) => {
    const run = () => assertNotConfirm(ids, INDEX);
    if (head === null) return expect(run).not.toThrow();
    expect(run).toThrow(SealedSuiteError);
    expect(run).toThrow(`${head}, which is sealed: ${SEALED_RULE}`);
    expect(() => assertNotConfirm(ids, new Set(["c-a", "c-b", "c-c", "c-d"]))).toThrow(head);
  });

  it("suite:confirm's refusal is one line naming the experiment commands; a GymError", () => {
    const e = sealedSuiteError();
    expect(e).toBeInstanceOf(GymError);
    expect(e.message).toBe(
      "suite:confirm is sealed: its tasks run and are read only through registered experiments " +
        "(openmle experiment register PLAN; openmle experiment list)",
    );
  });

  it("peekConfirmIds reads the index file as it is: none when missing or unreadable", () => {
    const dir = tmp();
    expect(peekConfirmIds(dir).size).toBe(0);
    writeFileSync(join(dir, "index.json"), "{");
    expect(peekConfirmIds(dir).size).toBe(0);
    writeFileSync(join(dir, "index.json"), JSON.stringify({ build_id: "b", tasks: INDEX.tasks }));
    expect([...peekConfirmIds(dir)].sort()).toEqual(["c-a", "c-b", "c-c", "c-d"]);
  });

  it("itemTaskIds: an id is itself; a path also its last name; a folder also its task.json id", () => {
    const root = tmp();
    mkdirSync(join(root, "pkg"));
    writeFileSync(join(root, "pkg", "task.json"), JSON.stringify({ id: "c-a" }));
    mkdirSync(join(root, "c-b"));
    expect(itemTaskIds("c-z")).toEqual(["c-z"]);
    expect(itemTaskIds(join(root, "gone", "c-c"))).toEqual([join(root, "gone", "c-c"), "c-c"]); // a path, not there
    expect(itemTaskIds(join(root, "pkg"))).toEqual([join(root, "pkg"), "pkg", "c-a"]);
    expect(itemTaskIds(join(root, "c-b"))).toEqual([join(root, "c-b"), "c-b"]);
    const confirm = confirmTaskIds(INDEX);
    expect(() => assertItemNotConfirm(join(root, "pkg"), confirm)).toThrow(`${join(root, "pkg")} (task c-a) is in`);
    expect(() => assertItemNotConfirm("t-a", confirm)).not.toThrow();
  });
});

describe("resolveTask keeps the seal for single tasks (--task)", () => {
  it("a confirm id or a folder of one is refused; allowConfirm passes it on to loading", async () => {
    const cache = tmp();
    const tasks = [suited("r-dev", { suite: "dev" }), suited("r-conf", { suite: "confirm" })];
    const index = { buildId: "b", builtAt: "2026-12-07T00:00:00.000Z", manifestHash: "m", tasks };
    writeCorpusIndex(index, join(cache, "corpus"));
    const before = process.env.OPENMLE_CACHE;
    process.env.OPENMLE_CACHE = cache;
    try {
      await expect(resolveTask("r-conf")).rejects.toThrow("task r-conf is in suite:confirm, which is sealed");
      await expect(resolveTask(join(cache, "corpus", "tasks", "r-conf"))).rejects.toThrow(SealedSuiteError);
      // Past the seal: no package was built here, so loading fails as for any missing package.
      await expect(resolveTask("r-conf", { allowConfirm: true })).rejects.toThrow(TaskPackageError);
      await expect(resolveTask("r-dev")).rejects.toThrow(TaskPackageError);
    } finally {
      if (before === undefined) delete process.env.OPENMLE_CACHE;
      else process.env.OPENMLE_CACHE = before;
    }
  });
});
