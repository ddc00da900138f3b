/**
 * bench/erl: collectSft on built-in tasks, then SFT of the grammar policy and fresh drafts before/after.
 *   npm run build && node dist/bench/erl/bench.js --tasks penguins,cars,wine,diabetes --steps 4 --attempts 8 --drafts 16
 * Writes bench/erl/results.json and prints markdown tables (bench/erl/runs/2026-11-30-sft-collection.md holds the measured ones).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectSft, draftContext, sftTrain, type CollectEvent } from "../../kit/erl/index.js";
import { evolve } from "../../kit/evo/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import type { TaskPackage } from "../../kit/gym/types.js";
import { createGrammarPolicy, defaultGrammarParams, type GrammarParams } from "../../kit/policy/index.js";
import { runSandbox } from "../../kit/sandbox/index.js";
import { openWorkspace, type Workspace } from "../../kit/store/index.js";
import { createRng } from "../../kit/util/index.js";
import { benchTasks } from "../task-list.js";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const taskIds = await benchTasks(arg("tasks", "penguins,cars,wine,diabetes"));
const steps = Number(arg("steps", "4"));
const attempts = Number(arg("attempts", "8"));
const drafts = Number(arg("drafts", "16"));
const concurrency = Number(arg("concurrency", "2"));
const out = arg("out", "bench/erl/results.json");
const timeoutS = 300;

async function pool<T, R>(items: readonly T[], k: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const res: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: k }, async () => {
    while (next < items.length) {
      const i = next++;
      res[i] = await fn(items[i]!);
    }
  }));
  return res;
}

/** 16 fresh drafts with seeds 1000.. under `params`: valid rate and mean validation score of the valid ones. */
async function freshDrafts(ws: Workspace, task: TaskPackage, params: GrammarParams) {
  const policy = createGrammarPolicy(params);
  const ctx = draftContext(timeoutS);
  const recs = await pool(Array.from({ length: drafts }, (_, i) => 1000 + i), concurrency, async (seed) => {
    const o = await policy.propose(task, "draft", ctx, createRng(seed));
    return runSandbox({ task, code: o.code, limits: { timeoutS }, workspace: ws });
  });
  const valid = recs.filter((r) => r.status === "success" && r.validScore !== null).map((r) => r.validScore!);
  return { validRate: valid.length / drafts, meanValid: valid.length ? valid.reduce((a, b) => a + b, 0) / valid.length : null };
}

const t0 = Date.now();
const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "bench-erl-")), "ws"));
const tasks = [];
for (const id of taskIds) tasks.push(await resolveTask(id));
const evaluate = (job: Parameters<typeof runSandbox>[0]) => runSandbox({ ...job, workspace: ws });
// 1. One short evolve run per task (the evolutionary path's trees).
const tEvo = Date.now();
for (const task of tasks) await evolve({ task, workspace: ws, evaluate, runId: `evo-${task.meta.id}`, config: { steps, seed: 1, gen0Drafts: 2, perRunTimeoutS: timeoutS, workers: 1 } });
const evolveS = (Date.now() - tEvo) / 1000;
// 2. Collection: parallel drafts + all runs.
const tCol = Date.now();
const log = (e: CollectEvent) => { if (e.type === "task-done") process.stderr.write(`${e.stats.taskId}: ${e.stats.kept}/${e.stats.attempts} (${e.stats.stopReason})\n`); };
const res = await collectSft({
  workspace: ws, dataset: "bench", tasks, teachers: { primary: createGrammarPolicy() }, runs: "all", evaluate,
  config: { maxAttempts: attempts, batchSize: 4, perTaskCap: 4, concurrency, perRunTimeoutS: timeoutS, seed: 7 }, onEvent: log,
});
const collectS = (Date.now() - tCol) / 1000;
// 3. SFT with a held-out quarter.
const sft = await sftTrain(ws, { dataset: "bench", from: "default", to: "sft-bench", config: { heldOut: 0.25, seed: 0 } });
// 4. Fresh drafts before/after with equal seeds.
const perTask = [];
for (const task of tasks) {
  const before = await freshDrafts(ws, task, defaultGrammarParams());
  const after = await freshDrafts(ws, task, sft.checkpoint.params);
  const p = res.parallel.find((x) => x.taskId === task.meta.id)!;
  perTask.push({
    task: task.meta.id, metric: `${task.meta.metric} (${task.meta.higherIsBetter ? "↑" : "↓"})`,
    examples: res.examples.filter((e) => e.taskId === task.meta.id).length, parallelAttempts: p.attempts, parallelKept: p.kept, stop: p.stopReason,
    segmentsAccepted: res.segments.filter((s) => s.taskId === task.meta.id && s.accepted).length,
    segments: res.segments.filter((s) => s.taskId === task.meta.id).length,
    before, after,
  });
}
const result = {
  command: process.argv.slice(2).join(" "), tasks: taskIds, steps, attempts, drafts, evolveS, collectS, totalS: (Date.now() - t0) / 1000,
  examples: res.examples.length, dropped: res.dropped, composition: res.composition, sft: sft.metrics, perTask,
};
writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
const f = (x: number | null, d = 3) => (x === null ? "n/a" : x.toFixed(d));
console.log("| task | metric | examples | parallel attempts | kept | stop | segments accepted | valid rate before → after | mean valid score before → after |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of perTask) console.log(`| ${r.task} | ${r.metric} | ${r.examples} | ${r.parallelAttempts} | ${r.parallelKept} | ${r.stop} | ${r.segmentsAccepted}/${r.segments} | ${f(r.before.validRate, 2)} → ${f(r.after.validRate, 2)} | ${f(r.before.meanValid, 4)} → ${f(r.after.meanValid, 4)} |`);
console.log("\n| operator | parallel | evolution | share | paper |\n|---|---|---|---|---|");
for (const c of res.composition) console.log(`| ${c.operator} | ${c.parallel} | ${c.evolution} | ${c.sharePct.toFixed(1)} % | ${c.paperPct.toFixed(1)} % |`);
const m = sft.metrics;
console.log(`\nSFT: ${m.trainExamples} train / ${m.heldOutExamples} held-out; mean log-likelihood train ${f(m.trainLogLikBefore)} → ${f(m.trainLogLikAfter)}, held-out ${f(m.heldOutLogLikBefore)} → ${f(m.heldOutLogLikAfter)}`);
console.log(`wall: evolve ${evolveS.toFixed(0)} s, collection ${collectS.toFixed(0)} s, total ${result.totalS.toFixed(0)} s`);
ws.close();
