// Grammar-policy benchmark: per built-in task, Draft validity and mean validation score over N drafts,
// the effect of one Improve (on the best draft) and one Crossover (of the two best drafts), and
// program generation time. Appends one JSON line per execution to --out, then prints a markdown table.
//   npx tsx bench/policy/bench.ts [--tasks a,b] [--drafts 10] [--timeout 120] [--out bench/policy/results.jsonl] [--table-only]
import { appendFileSync, readFileSync } from "node:fs";
import { BUILTIN_IDS, resolveTask } from "../../kit/gym/index.js";
import { createGrammarPolicy, methodFamily, type GrammarOutput } from "../../kit/policy/grammar/index.js";
import type { NodeView, Operator } from "../../kit/policy/types.js";
import { runSandbox, type ExecutionRecord } from "../../kit/sandbox/index.js";
import { createRng } from "../../kit/util/rng.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const tasks = arg("tasks", BUILTIN_IDS.join(",")).split(",");
const nDrafts = Number(arg("drafts", "10"));
const timeoutS = Number(arg("timeout", "120"));
const out = arg("out", "bench/policy/results.jsonl");

interface Row { task: string; operator: Operator; seed: number; genMs: number; status: string; validScore: number | null; testScore: number | null; wallS: number; family: string; parentBest?: number | null }

async function main() {
  if (!process.argv.includes("--table-only")) {
    const policy = createGrammarPolicy();
    const budget = { remainingSteps: 10, remainingTimeS: 3600, perRunTimeLimitS: timeoutS };
    for (const id of tasks) {
      const task = await resolveTask(id);
      const hib = task.meta.higherIsBetter;
      const run = async (op: Operator, seed: number, parents: NodeView[], parentBest?: number | null) => {
        const t0 = performance.now();
        const o = await policy.propose(task, op, { parents, budget }, createRng(seed));
        const genMs = performance.now() - t0;
        const r = await runSandbox({ task, code: o.code, limits: { timeoutS, memoryMb: 4096, cpus: 2 } });
        const row: Row = { task: id, operator: op, seed, genMs, status: r.status, validScore: r.validScore, testScore: r.testScore, wallS: r.wallS, family: methodFamily(o.spec), ...(parentBest !== undefined ? { parentBest } : {}) };
        appendFileSync(out, `${JSON.stringify(row)}\n`);
        return { o, r };
      };
      const nodeView = (id: string, o: GrammarOutput, r: ExecutionRecord): NodeView => ({ nodeId: id, operator: "draft", code: o.code, plan: o.plan, spec: o.spec, status: r.status, validScore: r.validScore, errorSignature: r.errorSignature, traceback: r.traceback, stdoutTail: r.stdoutTail, methodFamily: methodFamily(o.spec) });
      const drafts: NodeView[] = [];
      for (let seed = 1; seed <= nDrafts; seed++) {
        const { o, r } = await run("draft", seed, []);
        drafts.push(nodeView(`d${seed}`, o, r));
      }
      const ok = drafts.filter((d) => d.status === "success" && d.validScore !== null).sort((a, b) => (hib ? b.validScore! - a.validScore! : a.validScore! - b.validScore!));
      if (ok.length >= 1) await run("improve", 1001, [ok[0]!], ok[0]!.validScore);
      if (ok.length >= 2) await run("crossover", 2001, [ok[0]!, ok[1]!], ok[0]!.validScore);
    }
  }
  console.log(table(readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row)));
}

/** Markdown table: one line per task (the last result per task/operator/seed counts). */
export function table(rows: Row[]): string {
  const last = new Map<string, Row>();
  for (const r of rows) last.set(`${r.task}|${r.operator}|${r.seed}`, r);
  const byTask = new Map<string, Row[]>();
  for (const r of last.values()) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  const f = (x: number | null | undefined, d = 4) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
  const lines = ["| task | drafts valid | mean valid score (drafts) | best draft | after Improve | after Crossover | gen ms (mean) | run s (mean) |", "|---|---|---|---|---|---|---|---|"];
  for (const [task, rs] of byTask) {
    const d = rs.filter((r) => r.operator === "draft");
    const ok = d.filter((r) => r.status === "success" && r.validScore !== null);
    const imp = rs.find((r) => r.operator === "improve");
    const cx = rs.find((r) => r.operator === "crossover");
    const step = (r: Row | undefined) => (r ? (r.status === "success" ? `${f(r.validScore)} (Δ ${f(r.validScore! - (r.parentBest ?? NaN))})` : r.status) : "–");
    lines.push(`| ${task} | ${ok.length}/${d.length} | ${f(mean(ok.map((r) => r.validScore!)))} | ${f(imp?.parentBest ?? cx?.parentBest)} | ${step(imp)} | ${step(cx)} | ${f(mean(rs.map((r) => r.genMs)), 1)} | ${f(mean(rs.map((r) => r.wallS)), 1)} |`);
  }
  return lines.join("\n");
}

await main();
