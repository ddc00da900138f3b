// Every command's bad-input table, read off the command tree itself (buildProgram), so a command added
// later is covered without touching this file: an unknown flag, a missing workspace, a missing run and a
// numeric flag given a word each end in ONE stderr line and exit 1. Spawns the built CLI (dist/, as
// `npm test` builds it first) a few at a time.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { buildProgram } from "./program.js";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "kit", "cli", "main.js");
const TMP = mkdtempSync(join(tmpdir(), "openmle-bad-input-"));
/** A value for every required option and argument: a path that does not exist (so nothing real runs). */
const DUMMY = join(TMP, "nope");
/** Placeholders of the flags that take a number (`--steps <n>`, `--timeout <s>`, `--memory <MB>` …). */
const LLM_WS = join(TMP, "llm-failed");
const NUMERIC = /<(n|k|s|t|x|g|ms|MB|MiB|share)>$/;

interface Result {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

function cli(args: readonly string[], cwd = TMP): Promise<Result> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [MAIN, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const kill = setTimeout(() => c.kill("SIGKILL"), 90_000);
    c.stdout.on("data", (b: Buffer) => (out += b.toString()));
    c.stderr.on("data", (b: Buffer) => (err += b.toString()));
    c.on("exit", (code) => (clearTimeout(kill), resolve({ code, out, err })));
  });
}

/** Run `jobs` with at most `limit` in flight (each spawns a Node process). */
async function pool<T>(jobs: (() => Promise<T>)[], limit = 3): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

interface Leaf {
  readonly path: string[];
  readonly cmd: Command;
}

const leaves = (c: Command, path: string[] = []): Leaf[] =>
  c.commands.length ? c.commands.flatMap((s) => leaves(s, [...path, s.name()])) : [{ path, cmd: c }];

const has = (c: Command, long: string) => c.options.some((o) => o.long === long);

/** The command with a dummy for each required argument and mandatory option, except those in `skip`. */
function required(l: Leaf, skip: readonly string[] = []): string[] {
  const args = l.cmd.registeredArguments.filter((a) => a.required).map(() => DUMMY);
  for (const o of l.cmd.options) if (o.mandatory && !skip.includes(o.long!)) args.push(o.long!, DUMMY);
  return [...l.path, ...args];
}

/** Positionals the `workspace` commands take after the folder (optional to commander, needed by the command). */
const AFTER_DIR: Record<string, string[]> = {
  "workspace query": ["SELECT 1"],
  "workspace export": ["runs", join(TMP, "out.parquet")],
  "workspace import": [DUMMY, "runs"],
};

/** `workspace demo` creates its workspace (that is what it is for): a missing one is no error there. */
const CREATES_ON_SUCCESS = new Set(["workspace demo"]);

interface Case {
  readonly name: string;
  readonly args: string[];
  /** What the one line must say. */
  readonly says: RegExp;
  /** A folder that must not exist afterwards (a failed command leaves no new workspace). */
  readonly absent?: string;
}

/** A workspace with two runs (r1 finished, r2 running) and one with a single run (solo). */
async function fixtures(): Promise<{ two: string; one: string }> {
  const make = async (dir: string, runs: string[]) => {
    const ws = await openWorkspace(dir);
    await ws.append("tasks", [{ task_id: "houses", name: "houses", metric: "rmse", higher_is_better: false }]);
    await ws.append(
      "runs",
      runs.map((r, i) => ({
        run_id: r,
        task_id: "houses",
        harness: i ? "aide" : "openmle",
        policy: "grammar",
        seed: i,
        status: i ? "running" : "finished",
      })),
    );
    await ws.append(
      "nodes",
      runs.map((r) => ({
        run_id: r,
        node_id: "n0000",
        island: 0,
        step: 0,
        generation: 0,
        operator: "draft",
        parents: [],
        status: "success",
        valid_score: 3.0516310413505203,
        test_score: 2.97812345,
        admitted: true,
        plan: "a plan",
        code: "print(1)\n",
      })),
    );
    ws.close();
    return dir;
  };
  return { two: await make(join(TMP, "two"), ["r1", "r2"]), one: await make(join(TMP, "one"), ["solo"]) };
}

describe("every command's bad input gives one line and exit 1", () => {
  const all = leaves(buildProgram());
  let two: string;
  let one: string;
  let llmFailed: Promise<Result>;
  beforeAll(async () => {
    // Started first: the LLM client retries with backoff before it gives up (about half a minute).
    llmFailed = cli(["evolve", "--task", "penguins", "--policy", "openai", "--base-url", "http://127.0.0.1:9"].concat(
      ["--steps", "2", "--workspace", LLM_WS],
    ));
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npx tsc -p tsconfig.build.json)`);
    ({ two, one } = await fixtures());
  });

  it("the tree has the commands this table is about", () => {
    const names = all.map((l) => l.path.join(" "));
    for (const n of ["workspace query", "evolve", "node show", "runs list", "report", "evaluate", "rl export"])
      expect(names).toContain(n);
  });

  it("unknown flag, missing workspace, missing run, a word for a number", async () => {
    const cases: Case[] = [];
    for (const l of all) {
      const name = l.path.join(" ");
      const help = `see 'openmle ${name} --help'`;
      cases.push({
        name: `${name} --no-such-flag`,
        args: [...required(l), "--no-such-flag"],
        says: new RegExp(`^openmle: unknown option '--no-such-flag'; ${help}$`),
      });
      if (has(l.cmd, "--workspace") && !CREATES_ON_SUCCESS.has(name)) {
        const missing = join(TMP, `missing-${l.path.join("-")}`);
        cases.push({
          name: `${name} --workspace <missing>`,
          args: [...required(l, ["--workspace"]), "--workspace", missing, ...(AFTER_DIR[name] ?? [])],
          says: /^openmle: /,
          absent: missing,
        });
      }
      if (has(l.cmd, "--run"))
        cases.push({
          name: `${name} --run nope`,
          args: [...required(l, ["--workspace", "--run", "--out"]), "--workspace", two, "--run", "nope"]
            .concat(has(l.cmd, "--out") ? ["--out", join(TMP, `out-${l.path.join("-")}.jsonl`)] : []),
          says: /^openmle: .*"nope"/,
        });
      // One numeric flag per command (the first): every one goes through numeric-flag.ts's one rule.
      for (const o of l.cmd.options.filter((o) => NUMERIC.test(o.flags)).slice(0, 1))
        cases.push({
          name: `${name} ${o.long} abc`,
          args: [...required(l), o.long!, "abc"],
          says: /^openmle: /,
        });
    }
    const results = await pool(cases.map((c) => () => cli(c.args)));
    const bad = cases.flatMap((c, i) => {
      const r = results[i]!;
      const lines = r.err.trimEnd().split("\n");
      const problems = [
        r.code !== 1 && `exit ${r.code}`,
        lines.length !== 1 && `${lines.length} stderr lines`,
        !c.says.test(lines[0] ?? "") && `says ${JSON.stringify(lines[0])}, expected ${c.says}`,
        c.absent && existsSync(c.absent) && `left ${c.absent} behind`,
      ].filter(Boolean);
      return problems.length ? [`${c.name}: ${problems.join("; ")}\n${r.err}`] : [];
    });
    expect(bad).toEqual([]);
    expect(cases.length).toBeGreaterThan(50);
  }, 600_000);

  it("a file where a workspace folder goes is one line, and the file is left as it was", async () => {
    const file = join(TMP, "a-file");
    writeFileSync(file, "kept\n");
    const runs = [
      ["evolve", "--task", "cars", "--steps", "1", "--workspace", file],
      ["reproduce", "harness-fixed-model", "--preset", "smoke", "--workspace", file],
      ["workspace", "query", file, "SELECT 1"],
    ];
    for (const args of runs) {
      const r = await cli(args);
      expect([r.code, r.err]).toEqual([1, `openmle: ${file} is a file, not a workspace folder. Pass a folder path.\n`]);
    }
    expect(readFileSync(file, "utf8")).toBe("kept\n");
  });

  it("a numeric flag given a word names the flag and its range", async () => {
    const r = await cli(["evolve", "--task", DUMMY, "--steps", "abc"]);
    expect(r).toMatchObject({ code: 1, out: "" });
    expect(r.err).toBe("openmle: --steps abc is not a number: use an integer from 1 to 100000.\n");
  });

  it("--run defaults to the only run, and lists the runs when there are several", async () => {
    const solo = await cli(["node", "show", "--workspace", one, "--node", "n0000"]);
    expect(solo.code, solo.err).toBe(0);
    expect(solo.out).toMatch(/^node n0000 of run solo: draft \(step 0,/);
    // Scores print to the one rule for people (4 significant digits); --json keeps them whole.
    expect(solo.out).toContain("validation 3.052, hidden test 2.978");
    const json = JSON.parse((await cli(["node", "show", "--workspace", one, "--node", "n0000", "--json"])).out);
    expect(json).toMatchObject({ run_id: "solo", node_id: "n0000", node: { valid_score: 3.0516310413505203 } });
    const several = await cli(["node", "show", "--workspace", two, "--node", "n0000"]);
    expect(several).toMatchObject({ code: 1, out: "" });
    expect(several.err).toBe(
      `openmle: workspace ${two} holds 2 runs: pass --run <id>, one of r1 (openmle, finished), r2 (aide, running)\n`,
    );
  });

  it("workspace commands take --workspace DIR or the folder first; two different folders is an error", async () => {
    const flag = await cli(["workspace", "query", "--workspace", one, "SELECT run_id FROM runs", "--json"]);
    const positional = await cli(["workspace", "query", one, "SELECT run_id FROM runs", "--json"]);
    expect(flag.code, flag.err).toBe(0);
    expect(JSON.parse(flag.out)).toEqual([{ run_id: "solo" }]);
    expect(positional.out).toBe(flag.out);
    const both = await cli(["workspace", "info", two, "--workspace", one]);
    expect(both).toMatchObject({ code: 1, out: "" });
    expect(both.err).toMatch(/^openmle: two workspaces given \(--workspace .*one and .*two\): pass one\./);
    expect(both.err.trimEnd().split("\n")).toHaveLength(1);
  });

  it("evolve against a closed port fails in one line and leaves no workspace", async () => {
    const r = await llmFailed;
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^openmle: Cannot reach http:\/\/127\.0\.0\.1:9 .*$/m);
    expect(existsSync(LLM_WS)).toBe(false);
  }, 120_000);
});
