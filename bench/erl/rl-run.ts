// Benchmark (b): a short RL run on built-in tasks. Per step: mean group reward and the mean advantage given
// to each group's best candidate; per task: mean validation (and hidden test) score of fresh drafts from the
// start params and from the trained params, equal Rng seeds.
//   npx tsx bench/erl/rl-run.ts [--tasks penguins,wine,breast-cancer] [--steps 6] [--group 4] [--workers 2] [--drafts 4] [--mode async|sync] [--out bench/erl/rl-run.json]
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trainRL } from "../../kit/erl/index.js";
import { resolveTask, type TaskPackage } from "../../kit/gym/index.js";
import { createGrammarPolicy, defaultGrammarParams, type GrammarParams } from "../../kit/policy/grammar/index.js";
import { SandboxPool } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { createRng } from "../../kit/util/rng.js";
import { benchTasks } from "../task-list.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const taskIds = await benchTasks(arg("tasks", "penguins,wine,breast-cancer"));
const steps = Number(arg("steps", "6"));
const group = Number(arg("group", "4"));
const workers = Number(arg("workers", "2"));
const drafts = Number(arg("drafts", "4"));
const mode = arg("mode", "async") as "async" | "sync";
const out = arg("out", "bench/erl/rl-run.json");
const budget = { remainingSteps: 1, remainingTimeS: 600, perRunTimeLimitS: 300 };

async function draftScores(pool: SandboxPool, task: TaskPackage, params: GrammarParams) {
  const policy = createGrammarPolicy(params);
  const recs = await Promise.all(Array.from({ length: drafts }, async (_, i) => {
    const o = await policy.propose(task, "draft", { parents: [], budget }, createRng(1000 + i));
    return pool.submit({ task, code: o.code, limits: { timeoutS: 300, memoryMb: 4096, cpus: 1 } });
  }));
  const ok = recs.filter((r) => r.status === "success" && r.validScore !== null);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return { valid: ok.length, meanValid: mean(ok.map((r) => r.validScore!)), meanTest: mean(ok.filter((r) => r.testScore !== null).map((r) => r.testScore!)) };
}

async function main() {
  const tasks = [];
  for (const id of taskIds) tasks.push(await resolveTask(id));
  const pool = new SandboxPool({ cpuSlots: workers });
  const before: Record<string, unknown> = {};
  for (const t of tasks) before[t.meta.id] = await draftScores(pool, t, defaultGrammarParams());
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "bench-rl-run-")), "ws"));
  const t0 = performance.now();
  const r = await trainRL({
    workspace: ws, tasks, to: "bench-rl", config: { mode, steps, group, workers, seed: 1, perRunTimeoutS: 300 },
    onEvent: (e) => { if (e.type === "step") process.stderr.write(`step ${e.metrics.step}: mean reward ${e.metrics.meanReward.toFixed(3)}, best-candidate advantage ${e.metrics.bestAdvantage.toFixed(2)} (${e.metrics.wallS.toFixed(0)} s)\n`); },
  });
  const trainS = (performance.now() - t0) / 1000;
  const after: Record<string, unknown> = {};
  for (const t of tasks) after[t.meta.id] = await draftScores(pool, t, r.params);
  writeFileSync(out, `${JSON.stringify({ taskIds, steps, group, workers, drafts, mode, trainS, perTask: r.perTask, steps_: r.steps, before, after }, null, 1)}\n`);
  const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? "–" : x.toFixed(d));
  console.log("| step | groups | mean reward | best reward | best-candidate advantage | β | valid rate | hacks | s |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const s of r.steps) console.log(`| ${s.step} | ${s.groups} | ${f(s.meanReward)} | ${f(s.bestReward)} | ${f(s.bestAdvantage, 2)} | ${f(s.beta, 2)} | ${f(s.validRate, 2)} | ${s.hackFlags} | ${f(s.wallS, 0)} |`);
  console.log(`\ngroups per task: ${Object.entries(r.perTask).map(([k, v]) => `${k} ${v}`).join(", ")}; training ${trainS.toFixed(0)} s\n`);
  console.log(`| task | metric | drafts valid before → after | mean validation before → after | mean test before → after |`);
  console.log("|---|---|---|---|---|");
  for (const t of tasks) {
    const b = before[t.meta.id] as { valid: number; meanValid: number | null; meanTest: number | null };
    const a = after[t.meta.id] as typeof b;
    console.log(`| ${t.meta.id} | ${t.meta.metric} (${t.meta.higherIsBetter ? "↑" : "↓"}) | ${b.valid}/${drafts} → ${a.valid}/${drafts} | ${f(b.meanValid, 4)} → ${f(a.meanValid, 4)} | ${f(b.meanTest, 4)} → ${f(a.meanTest, 4)} |`);
  }
  ws.close();
}

await main();
