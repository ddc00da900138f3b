// `openmle leaderboards build` in this process with a stand-in builder: the task list it expands, the settings it
// passes, its progress lines and its output. The real build: kit/eval/reference-zoo-sandbox.test.ts.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { BuildLeaderboardsOptions, LeaderboardEvent } from "../eval/index.js";
import { BUILTIN_IDS, writeCorpusIndex } from "../gym/index.js";
import { suited } from "../gym/test-helpers/corpus-fixtures.js";
import { leaderboardProgress, registerLeaderboards } from "./leaderboards-cmd.js";
import { UsageError } from "./run-cli.js";

async function cli(...args: string[]) {
  const calls: { tasks: readonly string[]; opts: BuildLeaderboardsOptions }[] = [];
  const program = new Command().name("openmle").exitOverride();
  registerLeaderboards(program, async (tasks, opts) => {
    calls.push({ tasks, opts });
    opts.onEvent?.({ type: "task-done", taskId: tasks[0]!, rows: 25, invalid: 0, skipped: 0, seconds: 1, done: 1,
      total: tasks.length });
    return { out: opts.out ?? "default", manifest: "m.json", built: [tasks[0]!], upToDate: tasks.slice(1),
      failed: [] };
  });
  const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    await program.parseAsync(["leaderboards", "build", ...args], { from: "user" });
    return { calls, stdout: out.mock.calls.map((c) => String(c[0])).join(""), error: null as string | null };
  } catch (e) {
    if (!(e instanceof UsageError) && !(e as { userFacing?: boolean }).userFacing) throw e;
    return { calls, stdout: "", error: (e as Error).message };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe("openmle leaderboards build", () => {
  test("--tasks and --suite core: ids expanded, settings passed, JSON out", async () => {
    const r = await cli("--suite", "core", "--tasks", "penguins,extra-id", "--jobs", "3", "--out", "/tmp/lb",
      "--entry-timeout", "30", "--rebuild", "--json");
    expect(r.error).toBeNull();
    expect(r.calls[0]!.tasks).toEqual([...BUILTIN_IDS, "extra-id"]); // penguins once (core has it)
    expect(r.calls[0]!.opts).toMatchObject({ out: "/tmp/lb", config: { jobs: 3, rebuild: true, zoo: { entryTimeoutS: 30 } } });
    expect(r.calls[0]!.opts.onEvent).toBeUndefined();
    expect(JSON.parse(r.stdout)).toEqual({ out: "/tmp/lb", manifest: "m.json", built: [BUILTIN_IDS[0]],
      up_to_date: [...BUILTIN_IDS.slice(1), "extra-id"], failed: [] });
  });

  test("defaults: 2 jobs, a 60 s entry cap, no rebuild; a summary line", async () => {
    const r = await cli("--tasks", "cars");
    expect(r.calls[0]!.opts.config).toEqual({ jobs: 2, rebuild: false, zoo: { entryTimeoutS: 60 } });
    expect(r.stdout).toMatch(/^1 leaderboards built, 0 up to date, 0 failed; default \(manifest m\.json\)\n$/);
  });

  test.each([
    [[], /name the tasks with --suite NAMES or --tasks IDS/],
    [["--tasks", "cars", "--jobs", "0"], /--jobs 0 is out of range/],
    [["--tasks", "cars", "--entry-timeout", "soon"], /--entry-timeout soon is not a number/],
    [["--suite", "nope"], /unknown suite "nope"/],
  ])("bad input %j → one clear error, nothing built", async (args, msg) => {
    const r = await cli(...args);
    expect(r.error).toMatch(msg);
    expect(r.calls).toEqual([]);
  });
});

describe("corpus suites: dev as any suite, the sealed confirm only with --include-confirm", () => {
  const before = process.env.OPENMLE_CACHE;
  beforeAll(() => {
    process.env.OPENMLE_CACHE = mkdtempSync(join(tmpdir(), "lb-cmd-"));
    writeCorpusIndex({ buildId: "b1", builtAt: "2026-12-07T00:00:00.000Z", manifestHash: "m", tasks: [
      suited("r-a", { suite: "train" }), suited("r-b", { suite: "dev" }), suited("r-c", { suite: "confirm" }),
      suited("r-d", { suite: "confirm" }),
    ] });
  });
  afterAll(() => {
    if (before === undefined) delete process.env.OPENMLE_CACHE;
    else process.env.OPENMLE_CACHE = before;
  });
  test.each([
    [["--suite", "dev"], ["r-b"]],
    [["--suite", "dev,confirm", "--include-confirm"], ["r-b", "r-c", "r-d"]],
    [["--tasks", "r-c", "--include-confirm"], ["r-c"]],
  ])("%j → %j", async (args, ids) => {
    const r = await cli(...args);
    expect(r.error).toBeNull();
    expect(r.calls[0]!.tasks).toEqual(ids);
  });
  test.each([[["--suite", "confirm"]], [["--tasks", "r-d"]]])("%j without --include-confirm is refused", async (args) => {
    const r = await cli(...args);
    expect(r.error).toMatch(/sealed.*pass --include-confirm to build it$/);
    expect(r.calls).toEqual([]);
  });
});

describe("leaderboardProgress", () => {
  test.each([
    [{ type: "start", tasks: 85, jobs: 2, zooHash: "abc" }, /^reference zoo abc \(25 entries\): 85 tasks, 2 at once\n$/],
    [{ type: "task-up-to-date", taskId: "t", done: 4, total: 85 }, /^leaderboard t: up to date \(4 of 85\)\n$/],
    [{ type: "task-done", taskId: "t", rows: 24, invalid: 1, skipped: 0, seconds: 12.34, done: 3, total: 85 },
      /^leaderboard t: 24 rows, 1 invalid, 0 skipped, 12\.3 s \(3 of 85\)\n$/],
    [{ type: "task-failed", taskId: "t", message: "no such task", done: 5, total: 85 },
      /^leaderboard t: failed: no such task \(5 of 85\)\n$/],
    [{ type: "task-start", taskId: "t" }, null],
  ] as const)("%j", (e, want) => {
    let text = "";
    leaderboardProgress((s) => (text += s))(e as LeaderboardEvent);
    if (want) expect(text).toMatch(want);
    else expect(text).toBe("");
  });
});
