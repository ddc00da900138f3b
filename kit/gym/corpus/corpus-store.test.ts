import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWorkspace, type Workspace } from "../../store/index.js";
import { stage, suited } from "../test-helpers/corpus-fixtures.js";
import { listCorpusBuilds, loadFunnel, recordCorpusTasks, recordStages } from "./corpus-store.js";

let ws: Workspace;
beforeAll(async () => {
  ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-corpus-store-")), "ws"));
});
afterAll(() => ws.close());

const at = (iso: string) => () => new Date(iso);

describe("corpus store (real DuckDB)", () => {
  it("holds nothing at first", async () => {
    expect(await listCorpusBuilds(ws)).toEqual([]);
    expect(await loadFunnel(ws)).toBeNull();
  });

  it("round-trips a build's records and tasks; the newest build is the default", async () => {
    const old = [stage("b-old", "x", "export", "fail", "R package not installed")];
    const records = [
      stage("b-new", "a", "export", "pass"),
      stage("b-new", "a", "frame", "pass"),
      stage("b-new", "a", "build", "pass", "built", "a-medv"),
      stage("b-new", "b", "export", "fail", "timed out after 60 s"),
    ];
    await recordStages(ws, old, at("2026-12-01T10:00:00Z"));
    await recordStages(ws, records, at("2026-12-02T10:00:00Z"));
    const tasks = [suited("a-medv", { suite: "dev", synthesised: true }), suited("a-crim")];
    await recordCorpusTasks(ws, "b-new", tasks, at("2026-12-02T10:05:00Z"));
    const f = await loadFunnel(ws);
    expect(f?.buildId).toBe("b-new");
    expect(f?.records).toEqual(records);
    expect(f?.tasks).toEqual([suited("a-crim"), suited("a-medv", { suite: "dev", synthesised: true })]);
    expect((await loadFunnel(ws, "b-old"))?.records).toEqual(old);
    expect(await loadFunnel(ws, "b-none")).toBeNull();
  });

  it("lists builds newest first with their counts", async () => {
    const builds = await listCorpusBuilds(ws);
    expect(builds.map((b) => [b.buildId, b.candidates, b.records, b.tasks])).toEqual([
      ["b-new", 2, 4, 2],
      ["b-old", 1, 1, 0],
    ]);
    expect(builds[0]!.firstAt.toISOString()).toBe("2026-12-02T10:00:00.000Z");
    expect(builds[0]!.lastAt.toISOString()).toBe("2026-12-02T10:05:00.000Z");
  });

  it("recordCorpusTasks replaces the build's tasks; no records is a no-op", async () => {
    await recordCorpusTasks(ws, "b-new", [suited("only")]);
    expect((await loadFunnel(ws, "b-new"))?.tasks.map((t) => t.id)).toEqual(["only"]);
    await recordStages(ws, []);
    expect((await listCorpusBuilds(ws)).find((b) => b.buildId === "b-new")?.records).toBe(4);
  });
});
