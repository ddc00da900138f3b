// The corpus leaderboards without the sandbox: the ranking and CSV rules (hand-computed tables), the build's
// incremental manifest with a stand-in zoo on a real built-in package, and loading them for grading.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { packageHash, resolveTask, type TaskPackage } from "../gym/index.js";
import { openWorkspace } from "../store/index.js";
import {
  buildCorpusLeaderboards, corpusLeaderboardsFor, evaluate, evaluateRuns, formatScore, leaderboardCsv, rankEntries,
  readLeaderboardManifest, zooHash, ZOO_ENTRIES, type LeaderboardEvent, type RunOutcome, type ZooEntryResult,
} from "./index.js";

describe("formatScore: 10 significant digits, shortest text", () => {
  test.each([
    [0.65942028985507245, "0.6594202899"],
    [12, "12"],
    [2.97812345, "2.97812345"],
    [1.23456789012e-7, "1.23456789e-7"],
    [-0.5, "-0.5"],
    [123456789012, "123456789000"],
    [0.1 + 0.2, "0.3"],
  ])("formatScore(%s) = %s", (x, want) => expect(formatScore(x)).toBe(want));
  test("a score that is not finite is refused", () => expect(() => formatScore(Number.NaN)).toThrow(/not a finite/));
});

describe("rankEntries: best first by the rounded score, ties by name, invalid left off", () => {
  const entries = [
    { name: "rf-100", score: 0.8 },
    { name: "constant", score: 0.5 },
    { name: "knn-5", score: null },
    { name: "linear-c1", score: 0.90000000001 }, // rounds to 0.9: ties with hgb-default
    { name: "hgb-default", score: 0.9 },
    { name: "mlp-100", score: Number.NaN },
  ];
  test("higher is better", () =>
    expect(rankEntries(entries, true)).toEqual([
      { teamId: "hgb-default", score: "0.9" },
      { teamId: "linear-c1", score: "0.9" },
      { teamId: "rf-100", score: "0.8" },
      { teamId: "constant", score: "0.5" },
    ]));
  test("lower is better", () =>
    expect(rankEntries(entries, false).map((r) => r.teamId)).toEqual(["constant", "rf-100", "hgb-default", "linear-c1"]));
  test("leaderboardCsv", () => {
    expect(leaderboardCsv(rankEntries(entries, true).slice(0, 2))).toBe("teamId,score\nhgb-default,0.9\nlinear-c1,0.9\n");
    expect(() => leaderboardCsv([{ teamId: "a,b", score: "1" }])).toThrow(/teamId/);
  });
});

/** A stand-in zoo: every entry scores `base + i/100` (entry i), except those named in `fail`. */
const standIn = (base: number, fail: readonly string[] = [], calls: string[] = []) =>
  async (task: TaskPackage): Promise<{ entries: ZooEntryResult[]; seconds: number }> => {
    calls.push(task.meta.id);
    return {
      seconds: 1.25,
      entries: ZOO_ENTRIES.map((x, i) =>
        fail.includes(x.name)
          ? { name: x.name, status: "error" as const, score: null, message: "ValueError: boom", seconds: 0.1 }
          : { name: x.name, status: "ok" as const, score: base + i / 100, message: null, seconds: 0.1 }),
    };
  };

describe("buildCorpusLeaderboards (a stand-in zoo on the built-in penguins package)", () => {
  test("writes the CSV and the manifest, skips an up-to-date task, rebuilds byte for byte", async () => {
    const task = await resolveTask("penguins");
    const out = mkdtempSync(join(tmpdir(), "lb-build-"));
    const calls: string[] = [];
    const events: LeaderboardEvent[] = [];
    const opts = { out, runZoo: standIn(0.5, ["knn-5"], calls), now: () => new Date("2026-12-07T00:00:00Z"),
      onEvent: (e: LeaderboardEvent) => events.push(e) };
    const r1 = await buildCorpusLeaderboards([task], opts);
    expect(r1.built).toEqual(["penguins"]);
    const csv = readFileSync(join(out, "penguins", "leaderboard.csv"), "utf8");
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe("teamId,score");
    expect(lines).toHaveLength(1 + ZOO_ENTRIES.length - 1); // knn-5 left off
    expect(lines[1]).toBe(`${ZOO_ENTRIES.at(-1)!.name},${formatScore(0.5 + (ZOO_ENTRIES.length - 1) / 100)}`);
    expect(lines.at(-1)).toBe("constant,0.5");
    const m = readLeaderboardManifest(out)!;
    expect(m.zoo_hash).toBe(zooHash());
    expect(m.entries).toEqual(ZOO_ENTRIES.map((x) => x.name));
    expect(m.tasks.penguins).toEqual({
      package_hash: packageHash(task.dir), zoo_version: 1, zoo_hash: zooHash(), metric: "accuracy",
      higher_is_better: true, rows: ZOO_ENTRIES.length - 1, invalid: 1, skipped: 0,
      left_off: [{ name: "knn-5", status: "error", message: "ValueError: boom" }], build_seconds: 1.3,
      built_at: "2026-12-07T00:00:00.000Z",
    });
    expect(events.map((e) => e.type)).toEqual(["start", "task-start", "task-done", "done"]);

    const r2 = await buildCorpusLeaderboards([task], opts);
    expect(r2.upToDate).toEqual(["penguins"]);
    expect(calls).toEqual(["penguins"]); // the zoo did not run again

    await buildCorpusLeaderboards([task], { ...opts, config: { rebuild: true } });
    expect(calls).toEqual(["penguins", "penguins"]);
    expect(readFileSync(join(out, "penguins", "leaderboard.csv"), "utf8")).toBe(csv);

    // Another zoo setting is another zoo: the task is rebuilt.
    await buildCorpusLeaderboards([task], { ...opts, config: { zoo: { entryTimeoutS: 30 } } });
    expect(calls).toHaveLength(3);
    expect(readLeaderboardManifest(out)!.tasks.penguins!.zoo_hash).toBe(zooHash({ entryTimeoutS: 30 }));
  });

  test("fewer than 2 valid entries: no CSV, rows recorded; a task that fails is reported and the rest go on", async () => {
    const task = await resolveTask("penguins");
    const out = mkdtempSync(join(tmpdir(), "lb-few-"));
    const r = await buildCorpusLeaderboards(["no-such-task-id", task], {
      out, runZoo: standIn(0.5, ZOO_ENTRIES.slice(1).map((x) => x.name)), config: { jobs: 1 },
    });
    expect(r.failed.map((f) => f.taskId)).toEqual(["no-such-task-id"]);
    expect(existsSync(join(out, "penguins", "leaderboard.csv"))).toBe(false);
    expect(readLeaderboardManifest(out)!.tasks.penguins!.rows).toBe(1);
    expect(corpusLeaderboardsFor(["penguins"], { dir: out }).size).toBe(0);
  });
});

describe("grading corpus tasks against their leaderboards", () => {
  // A 5-row leaderboard 0.9 … 0.5 (higher is better): N = 5 → gold at position max(1, ⌊0.5⌋) = 1 (0.9), silver at
  // max(1, ⌊1⌋) = 1 (0.9), bronze at max(1, ⌊2⌋) = 2 (0.8); median 0.7.
  const dir = mkdtempSync(join(tmpdir(), "lb-grade-"));
  const manifest = (hash: string) => ({
    zoo_version: 1, zoo_hash: "z", entries: ["a", "b", "c", "d", "e"],
    tasks: { t: { package_hash: hash, zoo_version: 1, zoo_hash: "z", metric: "accuracy", higher_is_better: true, rows: 5,
      invalid: 0, skipped: 0, left_off: [], build_seconds: 1, built_at: "2026-12-07T00:00:00.000Z" } },
  });
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest("h1")));
  const csvDir = join(dir, "t");
  mkdirSync(csvDir);
  writeFileSync(join(csvDir, "leaderboard.csv"), "teamId,score\na,0.9\nb,0.8\nc,0.7\nd,0.6\ne,0.5\n");

  test("corpusLeaderboardsFor: loaded when the hash matches or is unknown, left out with a warning when not", () => {
    expect(corpusLeaderboardsFor(["t", "u"], { dir }).get("t")!.scores).toEqual([0.9, 0.8, 0.7, 0.6, 0.5]);
    expect(corpusLeaderboardsFor(["t"], { dir, packageHashOf: () => "h1" }).get("t")!.source).toBe("corpus:t");
    const warnings: string[] = [];
    const lbs = corpusLeaderboardsFor(["t"], { dir, packageHashOf: () => "h2", onWarning: (w) => warnings.push(w) });
    expect(lbs.size).toBe(0);
    expect(warnings).toEqual([expect.stringMatching(/built on package h1, the task's package is now h2: left out/)]);
    expect(corpusLeaderboardsFor(["t"], { dir: join(dir, "none") }).size).toBe(0);
  });

  test("evaluateRuns: medals and Human Rank on a corpus task; weak_reference from the baselines", () => {
    const o = (run_id: string, seed: number, score: number | null): RunOutcome => ({
      run_id, task_id: "t", harness: "h", policy: "p", config_hash: "c", seed, modality: "tabular",
      higher_is_better: true, score, submission_exists: score !== null,
    });
    const ev = evaluateRuns([o("r1", 1, 0.85), o("r2", 2, 0.95), o("r3", 3, 0.7)], {
      leaderboards: corpusLeaderboardsFor(["t"], { dir }),
      baselines: { t: { trivial: 0.5, reference: 0.52, perfect: 1 } }, // closes 0.02 / 0.5 = 4 % of the way: weak
    });
    // 0.85: bronze (≥ 0.8), beats 0.8, 0.7, 0.6, 0.5 → 4/5; 0.95: gold → 5/5; 0.7: none, beats 0.6, 0.5 → 2/5.
    expect(ev.runs.map((r) => [r.grade, r.human_rank])).toEqual([["bronze", 0.8], ["gold", 1], ["none", 0.4]]);
    // normalised: (0.85 − 0.5)/0.02 = 17.5 → 2; 0.95 → 22.5 → 2; 0.7 → 10 → 2 (the clip bounds the weak task).
    expect(ev.runs.map((r) => r.normalized)).toEqual([2, 2, 2]);
    expect(ev.tasks[0]).toMatchObject({ medal_rate: 2 / 3, weak_reference: true, normalized: 2 });
    expect(ev.tasks[0]!.human_rank).toBeCloseTo((0.8 + 1 + 0.4) / 3, 12);
  });

  test("evaluate(): the stored package's hash decides; a stale leaderboard is left out with a warning", async () => {
    const task = await resolveTask("penguins");
    const lbDir = mkdtempSync(join(tmpdir(), "lb-eval-"));
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "lb-ws-")), "ws"));
    try {
      await ws.append("tasks", [{ task_id: "penguins", name: "penguins", modality: "tabular", task_type: "classification",
        metric: "accuracy", higher_is_better: true, dir: task.dir, spec: JSON.stringify(task.meta) }]);
      await ws.append("runs", [{ run_id: "a", task_id: "penguins", harness: "openmle", seed: 1, config_hash: "h",
        status: "finished", summary: { test_score: 0.85 } }]);
      const write = (hash: string) => {
        const m = manifest(hash);
        writeFileSync(join(lbDir, "manifest.json"), JSON.stringify({ ...m, tasks: { penguins: m.tasks.t } }));
      };
      mkdirSync(join(lbDir, "penguins"), { recursive: true });
      writeFileSync(join(lbDir, "penguins", "leaderboard.csv"), "teamId,score\na,0.9\nb,0.8\nc,0.7\nd,0.6\ne,0.5\n");
      write(packageHash(task.dir));
      const good = await evaluate(ws, { corpusLeaderboardsDir: lbDir,
        baselines: { penguins: { trivial: 0.44, reference: 0.98 } } });
      expect(good.runs[0]).toMatchObject({ grade: "bronze", human_rank: 0.8, weak_reference: false });
      expect(good.warnings).toBeUndefined();
      write("0000000000000000");
      const stale = await evaluate(ws, { corpusLeaderboardsDir: lbDir });
      expect(stale.runs[0]!.grade).toBe("ungraded");
      expect(stale.warnings).toEqual([expect.stringMatching(/^the corpus leaderboard of penguins was built on package 0{16}/)]);
    } finally {
      ws.close();
    }
  });
});
