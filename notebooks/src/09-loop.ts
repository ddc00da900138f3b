// %% [markdown]
// # 09 · The closed loop: evolve → collectSft → SFT → trainRL → a better policy?
// `loop()` runs generation k with checkpoint k: the **teacher** (`teacher`: the default params here, the kit's
// stand-in for distilling a stronger model; later generations teach themselves) evolves on the **training** tasks,
// collectSft keeps the accepted segments of those runs (evolutionary path) and the best of its fresh drafts
// (parallel path), SFT then RL train checkpoint k into checkpoint k+1. Generation 0 here is `uniform` (every logit
// 0: the stand-in for a base model). Every checkpoint is measured on **held-out** tasks it never trained on, twice:
// fresh Drafts from the same draws (policy level) and short OpenMLE-Evo runs at the same seeds (search level).
//
// Set `OPENMLE_LOOP_WORKSPACE` (and `OPENMLE_LOOP_ID`) to look at a finished loop, e.g. the benchmark's
// (`bench/erl/README.md`). Without it this notebook runs a **smoke** loop (1 training task, 1 held-out
// task, 1 generation, two programs per stage): its numbers show the mechanics, not an effect.
// %%
import * as tslab from "tslab";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { erl, loop, htmlTable, notebookFigure, openWorkspace, resolveTask } from "openmle";

const givenWs = process.env.OPENMLE_LOOP_WORKSPACE;
const wsDir = givenWs ?? join(mkdtempSync(join(tmpdir(), "nb09-")), "ws");
let loopId = process.env.OPENMLE_LOOP_ID ?? "nb-smoke";
if (!givenWs) {
  const ws = await openWorkspace(wsDir);
  const t0 = Date.now();
  try {
    await loop({
      workspace: ws, loopId, trainTasks: [await resolveTask("penguins")], heldoutTasks: [await resolveTask("wine")],
      config: { preset: "smoke", generations: 1, seeds: [1], from: "uniform", teacher: "default" },
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
// ## Two held-out measures per generation
// **Policy level**: each held-out task's fresh Drafts (no memory; draw i seeded by the task and i, the same for
// every generation), executed and graded. **Search level**: the champion of a short OpenMLE-Evo run per seed. Both
// on the normalised scale `(test − trivial) / (reference − trivial)` against kit/eval's baselines (0 = trivial,
// 1 = reference); a program's credit is max(0, normalised), 0 when it failed. Per generation: the mean over tasks
// with a 95 % bootstrap interval, and the paired difference with the previous generation over the same tasks.
// %%
const fmt = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: { mean: number; lo: number; hi: number; n: number } | null) => (x ? `${fmt(x.mean)} [${fmt(x.lo)}, ${fmt(x.hi)}] (n ${x.n})` : "–");
const drafts = await erl.loadHeldoutDrafts(ws, loopId);
const checkpoints = [...new Set([...drafts, ...held].sort((a, b) => a.generation - b.generation).map((h) => h.checkpoint))];
const heldTasks = await Promise.all([...new Set([...drafts, ...held].map((h) => h.taskId))].map((id) => resolveTask(id)));
const hib = new Map(heldTasks.map((t) => [t.meta.id, t.meta.higherIsBetter]));
const baselineStage = (await ws.query<{ r: string }>("SELECT result AS r FROM loop_stages WHERE loop_id = $l AND generation = -1 AND stage = 'baselines'", { l: loopId }))[0];
const baselines = baselineStage ? (JSON.parse(baselineStage.r) as erl.Baselines) : {};
const report = erl.heldoutReport(checkpoints, drafts, held, erl.normalisableTasks(baselines, (id) => hib.get(id) ?? true));
tslab.display.html(htmlTable(report.map((g) => ({
  generation: g.generation, checkpoint: g.checkpoint, "policy: valid rate": fmt(g.policy.validRate, 2), "policy: score [95 %]": ci(g.policy.score),
  "policy: Δ previous": ci(g.policyVsPrevious), "search: score [95 %]": ci(g.search.score), "search: Δ previous": ci(g.searchVsPrevious),
})), { caption: "Held-out measures per generation (mean normalised credit over tasks)" }));
const curve = (key: "policy" | "search", name: string) => {
  const pts = report.filter((g) => g[key].score);
  return { type: "scatter", mode: "lines+markers", name, x: pts.map((g) => g.generation), y: pts.map((g) => g[key].score!.mean),
    error_y: { type: "data", symmetric: false, array: pts.map((g) => g[key].score!.hi - g[key].score!.mean), arrayminus: pts.map((g) => g[key].score!.mean - g[key].score!.lo), visible: true } };
};
tslab.display.html(notebookFigure({
  data: [curve("policy", "policy level (fresh drafts)"), curve("search", "search level (champions)")],
  layout: { title: { text: "Held-out normalised score per generation (95 % bootstrap over tasks)" }, xaxis: { title: { text: "generation" }, dtick: 1 }, yaxis: { title: { text: "mean normalised credit" } } },
}));
// %% [markdown]
// ## What was learned
// How far each generation moved: the mean KL(p_k ‖ p_k+1) per decision over generation k's fresh drafts on the
// held-out tasks (`erl.draftProbes`, not executed), and the decision situations that moved most, in words
// (`erl.shiftSentence`; `openmle policy diff A B` prints the same).
// %%
const paramsOf = async (name: string) => (await erl.resolvePolicyParams(name, ws)).params;
const moved: Record<string, unknown>[] = [];
const klRows: Record<string, unknown>[] = [];
for (let k = 1; k < checkpoints.length; k++) {
  const [before, after] = [await paramsOf(checkpoints[k - 1]!), await paramsOf(checkpoints[k]!)];
  const probes = await erl.draftProbes(before, heldTasks, { drafts: 8, seed: 1 });
  const kl = erl.policyKl(before, after, probes.probes);
  klRows.push({ generations: `${k - 1} → ${k}`, "mean KL (nats per decision)": kl.meanKl.toExponential(2), probes: kl.probes });
  for (const s of kl.situations.slice(0, 8)) moved.push({ generations: `${k - 1} → ${k}`, situation: erl.shiftSentence(s), "KL share": `${(100 * s.share).toFixed(1)} %` });
}
tslab.display.html(htmlTable(klRows, { caption: "How far each generation moved on the held-out tasks' decisions" }));
tslab.display.html(htmlTable(moved, { caption: "The decisions whose probabilities moved most" }));
// %% [markdown]
// ## SFT composition per generation
// The examples collectSft kept in each generation, by operator and path (parallel drafts vs accepted
// segments of the teacher's evolve runs), beside the paper's 26,259 examples (Draft 74.0 %, Debug 16.5 %,
// Improve 6.6 %, Crossover 2.8 %).
// %%
const comp = await ws.query<{ dataset: string; operator: string; source: string; n: number }>(
  `SELECT dataset, operator, CASE WHEN source_run IS NULL THEN 'parallel' ELSE 'evolution' END AS source, count(*)::INTEGER AS n
   FROM datasets WHERE dataset LIKE $p GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, { p: `${loopId}-g%` });
const compRows = [...new Set(comp.map((c) => c.dataset))].flatMap((dataset) => {
  const ofSet = comp.filter((c) => c.dataset === dataset);
  const total = ofSet.reduce((t, c) => t + c.n, 0);
  return Object.entries(erl.PAPER_COMPOSITION).map(([operator, paper]) => {
    const n = (path: string) => ofSet.find((c) => c.operator === operator && c.source === path)?.n ?? 0;
    return { dataset, operator, parallel: n("parallel"), evolution: n("evolution"),
      "share %": (100 * (n("parallel") + n("evolution")) / total).toFixed(1), "paper %": paper.toFixed(1) };
  });
});
tslab.display.html(htmlTable(compRows, { caption: "SFT examples per generation by operator and path, beside the paper's composition" }));
ws.close();
