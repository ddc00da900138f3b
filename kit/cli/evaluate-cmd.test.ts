// `openmle evaluate` in this process on a hand-built workspace: a corpus task graded on its corpus leaderboard (the
// paper's measures lead, the normalised score follows, clipped, weak references marked), --run on one run, and a
// leaderboard built on another package left out with one warning line on stderr.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { writeLeaderboardManifest } from "../eval/index.js";
import { packageHash, resolveTask, type TaskPackage } from "../gym/index.js";
import { openWorkspace } from "../store/index.js";
import { registerEvaluate } from "./evaluate-cmd.js";
import { UsageError } from "./run-cli.js";

/** `openmle evaluate ...` in this process: stdout, stderr, or the error runCli would print. */
async function cli(...args: string[]) {
  const program = new Command().name("openmle").exitOverride();
  registerEvaluate(program);
  const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  const text = (s: typeof out) => s.mock.calls.map((c) => String(c[0])).join("");
  try {
    await program.parseAsync(["evaluate", ...args], { from: "user" });
    return { stdout: text(out), stderr: text(err), error: null as string | null };
  } catch (e) {
    if (!(e instanceof UsageError) && !(e as { userFacing?: boolean }).userFacing) throw e;
    return { stdout: text(out), stderr: text(err), error: (e as Error).message };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** A corpus leaderboards folder holding penguins' (5 rows, higher is better), built on package `hash`. */
function boards(hash: string): string {
  const dir = mkdtempSync(join(tmpdir(), "cli-eval-lb-"));
  mkdirSync(join(dir, "penguins"));
  writeFileSync(join(dir, "penguins", "leaderboard.csv"), "teamId,score\na,0.9\nb,0.8\nc,0.7\nd,0.6\ne,0.5\n");
  writeLeaderboardManifest(dir, {
    zoo_version: 1, zoo_hash: "z", entries: ["a", "b", "c", "d", "e"],
    tasks: { penguins: { package_hash: hash, zoo_version: 1, zoo_hash: "z", metric: "accuracy", higher_is_better: true,
      rows: 5, invalid: 0, skipped: 0, left_off: [], build_seconds: 1, built_at: "2025-01-01T00:00:00Z" } },
  });
  return dir;
}

let task: TaskPackage;
let ws: string;
let fresh: string;
let stale: string;
beforeAll(async () => {
  task = await resolveTask("penguins");
  ws = join(mkdtempSync(join(tmpdir(), "cli-eval-")), "ws");
  const w = await openWorkspace(ws);
  try {
    await w.append("tasks", [{ task_id: "penguins", name: "penguins", modality: "tabular", task_type: "classification",
      metric: "accuracy", higher_is_better: true, dir: task.dir, spec: JSON.stringify(task.meta) }]);
    // Two seeds of one setting: 0.95 (gold: beats all 5) and 0.75 (bronze line 0.8 missed: none; beats 3 of 5).
    await w.append("runs", [0.95, 0.75].map((s, i) => ({ run_id: `r${i + 1}`, task_id: "penguins", harness: "openmle",
      seed: i + 1, config_hash: "h", status: "finished", summary: { test_score: s } })));
  } finally {
    w.close();
  }
  fresh = boards(packageHash(task.dir));
  stale = boards("0000000000000000");
}, 60_000);

describe("openmle evaluate", () => {
  test("a corpus task graded on its corpus leaderboard; the paper's measures lead, then the normalised", async () => {
    // trivial 0.5, reference 0.52: closes 0.02 / 0.5 = 4 % of the way to a perfect 1 → weak; both ratios clip to 2.
    const b = join(mkdtempSync(join(tmpdir(), "cli-eval-b-")), "baselines.json");
    writeFileSync(b, JSON.stringify({ penguins: { trivial: 0.5, reference: 0.52 } }));
    const r = await cli("--workspace", ws, "--leaderboards", fresh, "--baselines", b);
    expect(r.error).toBeNull();
    expect(r.stderr).toBe("");
    const [head, rule, row, blank, exploratory, boardsNote, normNote] = r.stdout.trimEnd().split("\n");
    expect(head!.split(/\s{2,}/)).toEqual(["group", "tasks", "k", "valid rate", "medal average", "human rank",
      "normalised (clipped)", "gold/silver/bronze/none/invalid/ungraded"]);
    expect(rule).toMatch(/^-+/);
    // Medal Average: (1 + 0)/2 = 50 ± 50 %; Human Rank (1 + 0.6)/2 = 0.8 ± 0.2.
    expect(row!.split(/\s{2,}/).slice(1)).toEqual(["1", "2", "100.0 ± 0.0 %", "50.0 ± 50.0 %", "0.8000 ± 0.2000",
      "2.000 ± 0.000 * (1 weak)", "1/0/0/1/0/0"]);
    expect(blank).toBe("");
    expect(exploratory).toMatch(/^Exploratory: this workspace's own runs, not a registered experiment/);
    expect(boardsNote).toMatch(/^Medal Average and Human Rank: .*corpus tasks on the kit's reference-zoo leaderboards/);
    expect(boardsNote).toContain("(the kit's construction, not the paper's");
    expect(normNote).toMatch(/clipped to \[−1, 2\].*\* = a weak reference/);
    expect(r.stdout).not.toMatch(/NaN|undefined|null/);
  });

  test("--run grades that run alone on the same leaderboard; --json carries it whole", async () => {
    const r = await cli("--workspace", ws, "--leaderboards", fresh, "--run", "r2", "--json");
    type Ev = { runs: { run_id: string; grade: string; human_rank: number }[]; groups: { k: number }[] };
    const ev = JSON.parse(r.stdout) as Ev;
    expect(ev.runs.map((x) => [x.run_id, x.grade, x.human_rank])).toEqual([["r2", "none", 0.6]]);
    expect(ev.groups[0]!.k).toBe(1);
  });

  test("a leaderboard built on another package is left out: ungraded, one warning line on stderr", async () => {
    const r = await cli("--workspace", ws, "--leaderboards", stale, "--json");
    const ev = JSON.parse(r.stdout) as { runs: { grade: string }[]; warnings: string[] };
    expect(ev.runs.map((x) => x.grade)).toEqual(["ungraded", "ungraded"]);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^openmle: the corpus leaderboard of penguins was built on package 0{16}, .* penguins$/),
    ]);
    expect(ev.warnings).toHaveLength(1);
    const human = await cli("--workspace", ws, "--leaderboards", stale, "--run", "r1");
    expect(human.stderr).toMatch(/^openmle: the corpus leaderboard of penguins/);
    expect(human.stdout).toMatch(/\(here 1 of 1 tasks\)\.\n$/); // no baselines: no normalised-score note
  });

  test("--run-baselines runs none for a task with a leaderboard; --save-baselines writes what was used", async () => {
    const saved = join(mkdtempSync(join(tmpdir(), "cli-eval-s-")), "saved.json");
    const r = await cli("--workspace", ws, "--leaderboards", fresh, "--run-baselines", "--save-baselines", saved);
    expect(r.error).toBeNull();
    expect(JSON.parse(readFileSync(saved, "utf8"))).toEqual({});
  });
});
