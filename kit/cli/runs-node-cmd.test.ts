import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { formatNumber, formatTable, MAX_CELL } from "./format.js";
import { progressBar } from "./evolve-cmd.js";
import { diffNode, renderNode, showNode } from "./node-cmd.js";
import { listRuns } from "./runs-cmd.js";

const main = join(import.meta.dirname, "main.ts");
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const PARENT = "import pandas as pd\nmodel = 'logreg'\nprint('Final Validation Score: 0.8')\n";
const CHILD = "import pandas as pd\nmodel = 'xgboost'\nprint('Final Validation Score: 0.9')\n";

/** A workspace with two runs of a lower-is-better task: a draft, an improve of it, a failed debug. */
async function fixture(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "openmle-runs-")), "ws");
  const ws = await openWorkspace(dir);
  await ws.append("tasks", [{ task_id: "houses", name: "houses", metric: "rmse", higher_is_better: false }]);
  await ws.append("runs", [
    { run_id: "r1", task_id: "houses", harness: "openmle", policy: "grammar", seed: 1, status: "finished" },
    { run_id: "r2", task_id: "houses", harness: "aide", policy: "grammar", seed: 2, status: "running" },
  ]);
  const node = (run: string, id: string, step: number, op: string, parents: string[], status: string, score: number | null, code: string) => ({
    run_id: run, node_id: id, island: 0, step, generation: 0, operator: op, parents, status, valid_score: score, admitted: true,
    plan: `${op} plan\nsecond line`, code, execution_id: `${run}-${id}`, error_signature: status === "success" ? null : "key_error",
  });
  await ws.append("nodes", [
    node("r1", "n0000", 0, "draft", [], "success", 3.5, PARENT),
    node("r1", "n0001", 1, "improve", ["n0000"], "success", 2.25, CHILD),
    node("r1", "n0002", 2, "debug", ["n0001"], "runtime_error", null, CHILD),
    node("r2", "n0000", 0, "draft", [], "success", 4, PARENT),
  ]);
  await ws.append("executions", [{ execution_id: "r1-n0002", run_id: "r1", node_id: "n0002", backend: "local", status: "runtime_error",
    traceback: "Traceback (most recent call last):\nKeyError: 'price'", wall_s: 1.5, cpu_s: 1.2, peak_mem_mb: 80 }]);
  await ws.append("cards", [{ run_id: "r1", node_id: "n0001", operator: "improve", method_family: "xgboost", imports: ["pandas", "xgboost"], novelty: 0.70710678 }]);
  ws.close();
  return dir;
}

describe("openmle runs / node", () => {
  let dir: string;
  beforeAll(async () => { dir = await fixture(); });

  it("runs list shows each run with its best score in the metric's direction", async () => {
    const rows = await listRuns(dir);
    expect(rows).toEqual([
      expect.objectContaining({ runId: "r1", harness: "openmle", nodes: 3, validNodes: 2, best: 2.25, status: "finished" }),
      expect.objectContaining({ runId: "r2", harness: "aide", nodes: 1, validNodes: 1, best: 4, status: "running" }),
    ]);
    const human = cli("runs", "list", "--workspace", dir).out;
    expect(human).toMatch(/r1\s+houses\s+openmle\s+grammar\s+1\s+2\/3 valid\s+2\.25\s+finished/);
  });

  it("node show prints plan, record with traceback, card and code", async () => {
    const r = { out: renderNode(await showNode(dir, "r1", "n0002")) };
    expect(r.out).toMatch(/node n0002 of run r1: debug .*parents: n0001/);
    expect(r.out).toMatch(/status runtime_error \(key_error\), validation —/);
    expect(r.out).toMatch(/## execution record\nlocal · runtime_error · wall 1\.5 s/);
    expect(r.out).toContain("KeyError: 'price'");
    expect(r.out).toContain("## code\nimport pandas as pd");
    const j = await showNode(dir, "r1", "n0001");
    expect(j).toMatchObject({ runId: "r1", nodeId: "n0001", node: { operator: "improve" }, card: { method_family: "xgboost" }, execution: null });
    expect(renderNode(j)).toContain("novelty 0.7071,"); // 4 significant digits, not 6
  });

  it("node diff compares with the parent by default, or --against any node of any run", async () => {
    const r = await diffNode(dir, "r1", "n0001");
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ from: "n0000", to: "n0001", added: 2, removed: 2 });
    expect(r[0].patch).toContain("-model = 'logreg'\n-print('Final Validation Score: 0.8')\n+model = 'xgboost'");
    const other = await diffNode(dir, "r1", "n0001", "r2:n0000");
    expect(other[0]!.from).toBe("r2:n0000");
    await expect(diffNode(dir, "r1", "n0000")).rejects.toThrow(/^node n0000 is a draft with no parent: pass --against <node>/);
  });

  it("unknown runs and nodes give one line naming the fix", async () => {
    await expect(showNode(dir, "nope", "n0000")).rejects.toThrow(/^run "nope" is not in workspace .*; its runs: r1 \(openmle, finished\), r2 \(aide, running\)$/);
    const node = cli("node", "show", "--workspace", dir, "--run", "r1", "--node", "n9");
    expect(node.err).toMatch(/^openmle: node "n9" is not in run r1 \(its nodes: n0000, n0001, n0002\)/);
    expect(node.err.split("\n").filter(Boolean)).toHaveLength(1);
  });
  it("is snake_case everywhere: keys converted deep, values untouched", async () => {
    const { snakeKeys } = await import("../util/index.js");
    expect(snakeKeys({ runId: "r1", byOperator: { draft: 2 }, champion: { validScore: 0.5, testScore: null }, rows: [{ nodeId: "nA" }], when: new Date(0) }))
      .toEqual({ run_id: "r1", by_operator: { draft: 2 }, champion: { valid_score: 0.5, test_score: null }, rows: [{ node_id: "nA" }], when: new Date(0) });
    const r = cli("runs", "list", "--workspace", dir, "--json");
    expect(Object.keys(JSON.parse(r.out)[0])).toEqual(["run_id", "task_id", "harness", "policy", "seed", "nodes", "valid_nodes", "best", "status", "started_at", "wall_s", "workers", "nodes_per_min", "program_share", "kit_share"]);
  });
});

describe("terminal formatting", () => {
  it("cuts long cells with a marker and shows numbers for people", () => {
    const long = "x".repeat(200);
    const t = formatTable([{ a: long, b: 0.123456789, c: null, d: "two\nlines" }]);
    const row = t.split("\n")[2]!;
    expect(row).toContain(`${"x".repeat(MAX_CELL - 1)}…`);
    expect(row).not.toContain("x".repeat(MAX_CELL));
    expect(row).toContain("0.123457");
    expect(row).toContain("two⏎lines");
    expect([formatNumber(NaN), formatNumber(null), formatNumber(1e-7), formatNumber(2)]).toEqual(["—", "—", "1.000e-7", "2"]);
  });

  it("evolve progress off a terminal is one line per node: its 0-based step, then how many nodes are done", () => {
    const out: string[] = [];
    const p = progressBar("lines", (s) => out.push(s));
    p({ type: "run-start", runId: "r9", resumed: false, nodes: 0 } as never);
    p({ type: "node", step: 0, done: 1, total: 4, best: 0.5, nodesPerMin: 3, node: { nodeId: "n0000", operator: "draft", status: "success", validScore: 0.5, errorSignature: null } } as never);
    p({ type: "node", step: 1, done: 2, total: 4, best: 0.5, nodesPerMin: 3, node: { nodeId: "n0001", operator: "debug", status: "runtime_error", validScore: null, errorSignature: "key_error" } } as never);
    expect(out).toEqual(["run r9\n", "step 0 n0000 draft success score 0.5 best 0.5 (1 of 4 nodes done)\n", "step 1 n0001 debug runtime_error (key_error) score — best 0.5 (2 of 4 nodes done)\n"]);
  });
});

describe("openmle llm replay", () => {
  it("serves a script on 127.0.0.1 until interrupted", async () => {
    const d = mkdtempSync(join(tmpdir(), "openmle-replay-"));
    const script = join(d, "script.json");
    writeFileSync(script, JSON.stringify([{ kind: "text", text: "hello from the script" }]));
    const child = spawn(process.execPath, ["--import", "tsx", main, "llm", "replay", "--script", script, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (b: Buffer) => {
        out += b.toString();
        const m = /on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (c) => reject(new Error(`exited ${c}: ${out}`)));
    });
    const res = await fetch(`${url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }) });
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]!.message.content).toBe("hello from the script");
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    expect(out).toContain("served 1 requests");
  });

  it("a bad script gives one line naming the fix", () => {
    const d = mkdtempSync(join(tmpdir(), "openmle-replay-"));
    writeFileSync(join(d, "bad.json"), JSON.stringify([{ kind: "nope" }]));
    const r = cli("llm", "replay", "--script", join(d, "bad.json"));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^openmle: --script .*bad\.json: reply 1 has kind "nope"; valid kinds: text, error/);
  });
});
