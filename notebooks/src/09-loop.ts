// %% [markdown]
// # 09 · The closed loop: evolve → collectSft → SFT → trainRL → a better policy?
// `loop()` runs generation k with checkpoint k: it evolves on the **training** tasks, collects SFT
// data from those runs (evolutionary path) and from fresh drafts (parallel path), trains SFT then RL
// from checkpoint k and stores checkpoint k+1 with its lineage. Every checkpoint is also evaluated on
// **held-out** tasks it never trained on, with the same harness, step budget and seeds.
//
// Set `OPENMLE_LOOP_WORKSPACE` (and `OPENMLE_LOOP_ID`) to look at a finished loop, e.g. the benchmark's
// (`bench/erl/README.md`). Without it this notebook runs a **smoke** loop (1 training task, 1 held-out
// task, 1 seed, 1 generation, two programs per stage): its numbers show the mechanics, not an effect.
// %%
import * as tslab from "tslab";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { erl, loop, htmlTable, notebookFigure, openWorkspace, resolveTask, createGrammarPolicy, createRng } from "openmle";

const givenWs = process.env.OPENMLE_LOOP_WORKSPACE;
const wsDir = givenWs ?? join(mkdtempSync(join(tmpdir(), "nb09-")), "ws");
let loopId = process.env.OPENMLE_LOOP_ID ?? "nb-smoke";
if (!givenWs) {
  const ws = await openWorkspace(wsDir);
  const t0 = Date.now();
  try {
    await loop({
      workspace: ws, loopId, trainTasks: [await resolveTask("penguins")], heldoutTasks: [await resolveTask("wine")],
      config: { preset: "smoke", generations: 1, seeds: [1] },
    });
  } finally {
    ws.close();
  }
  console.log(`smoke loop finished in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
const ws = await openWorkspace(wsDir, { readOnly: true });
if (givenWs && !process.env.OPENMLE_LOOP_ID) loopId = (await ws.query<{ loop_id: string }>("SELECT loop_id FROM loops ORDER BY started_at DESC LIMIT 1"))[0]!.loop_id;
const stages = await erl.loopStages(ws, loopId);
const held = await erl.loadHeldout(ws, loopId);
tslab.display.html(htmlTable(stages.map((s) => ({ generation: s.generation, stage: s.stage, status: s.status })), { caption: `Stage records of loop ${loopId} (a killed loop resumes at the first stage not done)` }));
// %% [markdown]
// ## Held-out score per generation
// Per held-out run: the champion's validation and hidden test scores, the valid rate, the mean score of
// the successful drafts, and the normalised score `(test − trivial) / (reference − trivial)` against
// kit/eval's trivial and reference baselines (0 = trivial, 1 = reference; empty where kit/eval has no
// baseline for the task). The figure shows the mean over held-out tasks per seed, then mean ± std over seeds.
// %%
const fmt = (x: number | null, d = 4) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
tslab.display.html(htmlTable(held.map((h) => ({
  generation: h.generation, checkpoint: h.checkpoint, task: h.taskId, seed: h.seed, "valid score": fmt(h.validScore), "test score": fmt(h.testScore),
  "valid rate": fmt(h.validRate, 2), "mean draft": fmt(h.meanDraftScore), normalised: fmt(h.normalized, 3),
})), { caption: "Held-out runs at equal budget" }));
const gens = [...new Set(held.map((h) => h.generation))].sort((a, b) => a - b);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const perGen = gens.map((g) => {
  const rows = held.filter((h) => h.generation === g && h.normalized !== null);
  const seeds = [...new Set(rows.map((h) => h.seed))];
  const bySeed = seeds.map((s) => mean(rows.filter((h) => h.seed === s).map((h) => h.normalized!)));
  const m = bySeed.length ? mean(bySeed) : NaN;
  const sd = bySeed.length > 1 ? Math.sqrt(bySeed.reduce((t, x) => t + (x - m) ** 2, 0) / (bySeed.length - 1)) : 0;
  return { g, m, sd, n: bySeed.length };
}).filter((r) => r.n > 0);
tslab.display.html(notebookFigure({
  data: [{ type: "scatter", mode: "lines+markers", x: perGen.map((r) => r.g), y: perGen.map((r) => r.m), error_y: { type: "data", array: perGen.map((r) => r.sd), visible: true }, name: "held-out" }],
  layout: { title: { text: "Held-out mean normalised score per generation (± std over seeds)" }, xaxis: { title: { text: "generation" }, dtick: 1 }, yaxis: { title: { text: "normalised score" } } },
}));
// %% [markdown]
// ## Which decisions moved
// Each generation's checkpoint against the previous one: drafts sampled by the newer checkpoint on every
// held-out task (40 Rng seeds) are the probes; `erl.diffDecisions` scores each distinct decision situation
// under both parameter sets and reports the total-variation distance and the option that moved most.
// %%
const ckNames = [...new Set(held.map((h) => h.checkpoint))];
const heldTasks = await Promise.all([...new Set(held.map((h) => h.taskId))].map((id) => resolveTask(id)));
const paramsOf = async (name: string) => (await erl.resolvePolicyParams(name, ws)).params;
const budget = { remainingSteps: 10, remainingTimeS: 3600, perRunTimeLimitS: 120 };
const shiftRows: Record<string, unknown>[] = [];
for (let k = 1; k < ckNames.length; k++) {
  const [before, after] = [await paramsOf(ckNames[k - 1]!), await paramsOf(ckNames[k]!)];
  const probes = [];
  for (const t of heldTasks) for (let s = 1; s <= 40; s++) probes.push(...(await createGrammarPolicy(after).propose(t, "draft", { parents: [], budget }, createRng(s))).choices);
  for (const r of erl.summariseShifts(erl.diffDecisions(before, after, probes)).slice(0, 10)) {
    shiftRows.push({ generation: `${k - 1} → ${k}`, decision: r.decision, "mean TV": r.meanTv.toFixed(3), "max TV": r.maxTv.toFixed(3), "top option": r.topOption, "Δp": (r.topDelta >= 0 ? "+" : "") + r.topDelta.toFixed(3) });
  }
}
tslab.display.html(htmlTable(shiftRows, { caption: "Decisions whose probabilities moved most (held-out tasks' draft decisions)" }));
if (shiftRows.length) {
  const top = shiftRows.filter((r) => r.generation === shiftRows[0]!.generation);
  tslab.display.html(notebookFigure({
    data: [{ type: "bar", orientation: "h", y: top.map((r) => r.decision), x: top.map((r) => Number(r["mean TV"])) }],
    layout: { title: { text: `Total-variation shift per decision, generation ${String(shiftRows[0]!.generation)}` }, margin: { l: 220 }, xaxis: { title: { text: "mean TV distance" } } },
  }));
}
// %% [markdown]
// ## SFT composition per generation
// The examples collectSft kept in each generation, by operator and path (parallel drafts vs accepted
// segments of the generation's evolve runs).
// %%
const comp = await ws.query<{ dataset: string; operator: string; source: string; n: number }>(
  `SELECT dataset, operator, CASE WHEN source_run IS NULL THEN 'parallel' ELSE 'evolution' END AS source, count(*)::INTEGER AS n
   FROM datasets WHERE dataset LIKE $p GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, { p: `${loopId}-g%` });
tslab.display.html(htmlTable(comp.map((c) => ({ dataset: c.dataset, operator: c.operator, path: c.source, examples: c.n })), { caption: "SFT examples per generation" }));
ws.close();
