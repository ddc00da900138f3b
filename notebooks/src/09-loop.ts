// %% [markdown]
// # 09 · The closed loop: evolve → collectSft → SFT → trainRL → a better policy?
// `loop()` runs generation k with checkpoint k: the **teacher** (`teacher`: the default params here, the kit's
// stand-in for distilling a stronger model; later generations teach themselves) evolves on the **training** tasks,
// collectSft keeps the accepted segments of those runs (evolutionary path) and the best of its fresh drafts
// (parallel path), SFT then RL train checkpoint k into checkpoint k+1. Generation 0 here is `uniform` (every logit
// 0: the stand-in for a base model). Every checkpoint is measured on **held-out** tasks it never trained on, twice:
// fresh Drafts from the same draws (policy level) and short OpenMLE-Evo runs at the same seeds (search level).
//
// This notebook first reads a **finished laptop loop** the kit recorded (`data/recorded-runs/learning-armA60s`: 60
// training and 20 held-out corpus tasks, two generations, 73 minutes on 2 cores; Parquet of the loop's own tables,
// with its command and commit in PROVENANCE.md), the same pipeline recorded before its step sizes were tuned
// (`learning-armA60`) and a later recipe's generations (`learning-armA60u`: estimated off-policy, and measured on all
// 85 held-out tasks at both levels), then runs a **smoke** loop (1 training task, 1 held-out task, 1 generation, two
// programs per stage) to show the mechanics: its numbers are not an effect. Set `OPENMLE_LOOP_WORKSPACE` (and
// `OPENMLE_LOOP_ID`) to read a loop of your own in place of the recorded one.
// %%
import * as tslab from "tslab";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { erl, experiment, gym, loop, htmlTable, notebookFigure, openWorkspace, report as kitReport, resolveTask, store } from "openmle";
type Workspace = store.Workspace;

const fmt = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: { mean: number; lo: number; hi: number; n: number } | null) => (x ? `${fmt(x.mean)} [${fmt(x.lo)}, ${fmt(x.hi)}] (n ${x.n})` : "–");

/** Both held-out measures per checkpoint, as a table and a curve; returns the checkpoints and held-out tasks. */
async function heldoutMeasures(ws: Workspace, loopId: string, searchLoop = loopId) {
  const drafts = await erl.loadHeldoutDrafts(ws, loopId);
  const held = await erl.loadHeldout(ws, searchLoop);
  const checkpoints = [...new Set([...drafts, ...held].sort((a, b) => a.generation - b.generation).map((h) => h.checkpoint))];
  // The tasks as the loop stored them (meta only): a recorded loop's packages need not be built on this machine.
  const heldTasks = await gym.storedTaskPackages(ws, (await erl.loopTaskSets(ws, loopId))!.heldout);
  const baselines = await erl.loopBaselines(ws, loopId);
  const higher = gym.metricDirections(heldTasks);
  const report = erl.heldoutReport(checkpoints, drafts, held, erl.normalisableTasks(baselines, higher), higher);
  tslab.display.html(htmlTable(report.map((g) => ({
    generation: g.generation, checkpoint: g.checkpoint, "policy: valid rate": fmt(g.policy.validRate, 2), "policy: score [95 %]": ci(g.policy.score),
    "policy: Δ previous": ci(g.vsPrevious?.policy.score.tasks ?? null), "policy: Δ generation 0": ci(g.vsFirst?.policy.score.tasks ?? null), "search: score [95 %]": ci(g.search.score),
    "search: Δ previous": ci(g.vsPrevious?.search.score.tasks ?? null), "search: Δ generation 0": ci(g.vsFirst?.search.score.tasks ?? null),
  })), { caption: `Held-out measures per generation of loop ${loopId}${searchLoop === loopId ? "" : ` (search level: ${searchLoop})`} (mean normalised credit over tasks; Δ: paired over the same tasks)` }));
  // The same comparisons as win rates: P(a program of generation k beats one of the other on the same task) − ½, paired
  // over every held-out task, so a task with a weak reference (a large normalised score) weighs no more than another.
  tslab.display.html(htmlTable(report.slice(1).map((g) => ({
    generation: g.generation, "policy: win vs previous": ci(g.vsPrevious!.policy.win.tasks), "policy: win vs generation 0": ci(g.vsFirst!.policy.win.tasks),
    "search: win vs previous": ci(g.vsPrevious!.search.win.tasks), "search: win vs generation 0": ci(g.vsFirst!.search.win.tasks),
  })), { caption: `Win rates per generation of loop ${loopId} (P(this generation ≻ the other) − ½; 0 = level; every held-out task counts)` }));
  const curve = (key: "policy" | "search", name: string) => {
    const pts = report.filter((g) => g[key].score);
    return { type: "scatter", mode: "lines+markers", name, x: pts.map((g) => g.generation), y: pts.map((g) => g[key].score!.mean),
      error_y: { type: "data", symmetric: false, array: pts.map((g) => g[key].score!.hi - g[key].score!.mean), arrayminus: pts.map((g) => g[key].score!.mean - g[key].score!.lo), visible: true } };
  };
  tslab.display.html(notebookFigure({
    data: [curve("policy", "policy level (fresh drafts)"), curve("search", "search level (champions)")],
    layout: { title: { text: `Held-out normalised score per generation, loop ${searchLoop} (95 % bootstrap over tasks)` }, xaxis: { title: { text: "generation" }, dtick: 1 }, yaxis: { title: { text: "mean normalised credit" } } },
  }));
  return { checkpoints, heldTasks };
}

/**
 * The policy-level comparisons with each task's draws resampled as well as the tasks (kit/eval twoStageBootstrap): a
 * task whose figure is noisy cannot narrow the interval by landing near the mean. `rowsId`: the loop's own drafts, or
 * a re-measure at more drafts (`bench/erl/reeval.ts --drafts N`, stored as `<loop>-<tag>`, the teacher's as
 * `<loop>-<tag>-teacher`).
 */
async function withDrawNoise(ws: Workspace, loopId: string, rowsId: string) {
  const heldTasks = await gym.storedTaskPackages(ws, (await erl.loopTaskSets(ws, loopId))!.heldout);
  const higher = gym.metricDirections(heldTasks);
  const norm = erl.normalisableTasks(await erl.loopBaselines(ws, loopId), higher);
  const drafts = await erl.loadHeldoutDrafts(ws, rowsId);
  const teacher = await erl.loadHeldoutDrafts(ws, `${rowsId}-teacher`);
  type Row = erl.HeldoutDraftRow;
  const at = (g: number) => drafts.filter((r) => r.generation === g);
  const rows: Record<string, unknown>[] = [];
  const compare = (name: string, a: Row[], b: Row[]) => {
    const r = erl.pairedReadings(a, b, norm, higher);
    rows.push({
      comparison: name, "draws per task": Math.max(...a.map((d) => d.draft)) + 1,
      "Δ score, tasks resampled": ci(r.score.tasks), "Δ score, tasks and draws": ci(r.score.withDraws),
      "win, tasks resampled": ci(r.win.tasks), "win, tasks and draws": ci(r.win.withDraws),
    });
  };
  const gens = [...new Set(drafts.map((r) => r.generation))].sort((x, y) => x - y);
  for (const g of gens.slice(1)) {
    compare(`g${g} − g${g - 1}`, at(g), at(g - 1));
    if (g > 1) compare(`g${g} − g0`, at(g), at(0));
    if (teacher.length) compare(`g${g} − teacher`, at(g), teacher);
  }
  tslab.display.html(htmlTable(rows, { caption: `Policy level of loop ${loopId}${rowsId === loopId ? "" : ` (rows ${rowsId})`}: intervals over tasks only, and over tasks and their draws` }));
}

/** How far each generation moved (mean KL over generation k's fresh drafts' decisions) and what moved most. */
async function whatMoved(ws: Workspace, checkpoints: string[], heldTasks: gym.TaskPackage[]) {
  const paramsOf = async (name: string) => (await erl.resolvePolicyParams(name, ws)).params;
  const moved: Record<string, unknown>[] = [];
  const klRows: Record<string, unknown>[] = [];
  for (let k = 1; k < checkpoints.length; k++) {
    const [before, after] = [await paramsOf(checkpoints[k - 1]!), await paramsOf(checkpoints[k]!)];
    const probes = await erl.draftProbes(before, heldTasks, { drafts: 4, seed: 1 });
    const kl = erl.policyKl(before, after, probes.probes);
    klRows.push({ generations: `${k - 1} → ${k}`, "mean KL (nats per decision)": kl.meanKl.toExponential(2), probes: kl.probes });
    for (const s of kl.situations.slice(0, 6)) moved.push({ generations: `${k - 1} → ${k}`, situation: erl.shiftSentence(s), "KL share": `${(100 * s.share).toFixed(1)} %` });
  }
  tslab.display.html(htmlTable(klRows, { caption: "How far each generation moved on the held-out tasks' decisions" }));
  tslab.display.html(htmlTable(moved, { caption: "The decisions whose probabilities moved most" }));
}

/** Each generation's SFT examples by operator and path, beside the paper's. */
async function composition(ws: Workspace, loopId: string) {
  const comp = await erl.loopCompositions(ws, loopId);
  tslab.display.html(htmlTable(comp.flatMap((g) => (g.composition ?? []).map((r) => ({
    generation: g.generation, dataset: g.dataset, operator: r.operator, parallel: r.parallel, evolution: r.evolution,
    "share %": fmt(r.sharePct, 1), "paper %": fmt(r.paperPct, 1),
  }))), { caption: "SFT examples per generation by operator and path, beside the paper's composition" }));
}

/** Where the time went: minutes per stage and generation. */
async function stageMinutes(ws: Workspace, loopId: string) {
  const stages = await erl.loopStages(ws, loopId);
  const gens = [...new Set(stages.map((s) => s.generation))];
  const names = ["baselines", ...erl.LOOP_STAGES];
  tslab.display.html(htmlTable(gens.map((g) => {
    const of = stages.filter((s) => s.generation === g);
    const min = (s: (typeof of)[number] | undefined) => (s && s.seconds !== null ? s.seconds / 60 : null);
    return { generation: g, ...Object.fromEntries(names.filter((n) => stages.some((s) => s.stage === n)).map((n) => [n, fmt(min(of.find((s) => s.stage === n)), 1)])),
      total: fmt(of.reduce((t, s) => t + (min(s) ?? 0), 0), 1) };
  }), { caption: "Minutes per stage and generation (generation −1: the held-out baselines; the last generation is only measured)" }));
}
// %% [markdown]
// ## A finished laptop loop (recorded)
// Arm A of `bench/erl` (issue 30) at the laptop preset: from `uniform`, the `default` params teach generation 1,
// generation 1 teaches generation 2 (self-improvement, the step the paper did not take), on 60 training tasks of the
// corpus. Held-out: 20 tasks of the corpus' held-out suite (14 with a normalised score, i.e. where kit/eval's
// reference beats its trivial baseline), 8 fresh Drafts each for the policy level, a 6-step OpenMLE-Evo run on the 10
// normalisable ones at 2 seeds for the search level. Read the Δ and win columns, not the levels: the intervals are
// over tasks, paired at identical draws and seeds. The win rate is P(a program of generation k beats one of the
// other on the same task) − ½: every held-out task weighs the same, so a task with a weak reference (a large
// normalised score) cannot carry the mean.
// %%
const givenWs = process.env.OPENMLE_LOOP_WORKSPACE;
const rec = givenWs ? await openWorkspace(givenWs, { readOnly: true }) : await kitReport.openRecordedRuns("learning-armA60s");
const recLoop = process.env.OPENMLE_LOOP_ID ?? (await erl.loopIds(rec))[0]!;
const recorded = await heldoutMeasures(rec, recLoop);
// %% [markdown]
// **What it says, at 8 drafts.** Read by the intervals over tasks, the self-taught generation 2 beats generation 1 on
// the policy level (+0.077, +0.027 to +0.128; win +0.063, +0.016 to +0.112) and the `default` teacher measured on the
// same draws (+0.125, +0.022 to +0.258), and generation 1 is ahead of `uniform` only within the noise. Those
// intervals resample tasks, not each task's 8 drafts: the next table resamples both.
// %%
await withDrawNoise(rec, recLoop, recLoop);
// %% [markdown]
// With the drafts resampled too, none of the score differences excludes 0. The reason is in the per-task rows: two
// tasks with a weak reference (normalised scores near 5 and 10) carry 81 % of the drafts' noise (standard errors
// 0.45 and 0.74 of their own g2 − g1 differences), yet at 8 drafts those differences landed at +0.031 and −0.045,
// close to the others, so the tasks-only interval came out narrower than those drafts allow (`bench/erl/noise.ts` splits the variance: draft noise is 85–100 % of it at 8 drafts).
// The recording also holds the same checkpoints and the teacher re-measured at **32 drafts** per task
// (`bench/erl/reeval.ts --drafts 32`, the same draw seeds):
// %%
if ((await erl.loadHeldoutDrafts(rec, `${recLoop}-d32`)).length) await withDrawNoise(rec, recLoop, `${recLoop}-d32`);
// %% [markdown]
// **What it says, at 32 drafts.** Generation 2's +0.077 over generation 1 was noise (now −0.022, across 0): one
// weak-reference task moved the mean. What holds under both intervals is the scale-free reading: generation 2's
// drafts beat generation 1's (win +0.035) and the teacher's (+0.045) on more tasks than they lose, by small margins
// whose two-stage intervals start at +0.001. Generation 1 against `uniform`: +0.112 on the mean (over tasks +0.032 to
// +0.221, with the drafts resampled −0.006 to +0.286) and level on the win rate; against its teacher, level. The
// search level (first table) does not follow. One run (bench/erl/runs/2026-12-05-learning-09-run7-arm-a.md and
// 2026-12-05-learning-11-noise.md); the next tables say how far the policy moved: KL 8.2e-2 and 3.8e-2, mostly in Draft
// decisions (the model on mid-sized tabular tasks: xgboost, then gradient boosting; window and calendar features on
// time series).
// %%
await whatMoved(rec, recorded.checkpoints, recorded.heldTasks);
// %% [markdown]
// ## SFT composition and time per generation
// The examples collectSft kept in each generation, by operator and path (parallel drafts vs accepted segments of
// the teacher's evolve runs), beside the paper's 26,259 examples (Draft 74.0 %, Debug 16.5 %, Improve 6.6 %,
// Crossover 2.8 %); and the minutes each stage took. The laptop preset keeps 305 and 311 examples (a hundredth of
// the paper's) and no Debug segment, because the teacher's programs rarely fail on these tasks. The minutes of this
// recording are not the preset's: generation 0 reused programs the fifth run had executed in the same workspace
// (held-out 1.2, collect 0.7) and its RL ran beside the CI suite (17.4); generation 1, about 33 minutes, is typical.
// %%
await composition(rec, recLoop);
await stageMinutes(rec, recLoop);
rec.close();
// %% [markdown]
// ## The same pipeline before its step sizes were tuned
// The fifth run of `bench/erl` (`learning-armA60`): the same command, when SFT ran 20 epochs at lr 0.5 (it stopped
// while its own held-out split still improved) and GSPO ran at lr 1 (12 RL steps moved the policy 6e-4 nats per
// decision, under the 1e-3 floor). Both were retuned on the training side only (`bench/erl/step-size.ts`,
// bench/erl/runs/2026-12-05-learning-08-step-sizes.md). Then the policy moved 2.6e-2 and 5.4e-3, generation 1 landed on
// its teacher and generation 2's drafts were *worse* than generation 1's (−0.048, interval −0.109 to −0.006; win rate
// −0.034, −0.052 to −0.018). Its search level is shown as re-measured on the 10 normalisable tasks
// (`bench/erl/reeval.ts --search-level`, loop `<loop>-ns`).
// %%
if (!givenWs) {
  const before = await kitReport.openRecordedRuns("learning-armA60");
  const id = (await erl.loopIds(before))[0]!;
  await heldoutMeasures(before, id, `${id}-ns`);
  before.close();
}
// %% [markdown]
// ## Every checkpoint estimated from every checkpoint's drafts (off-policy)
// The grammar policy gives the exact probability of any draft under any params, so the drafts four checkpoints drew
// on a task (32 each, same draw seeds) estimate each checkpoint's figure by **multiple importance sampling**: every
// draft weighted by π_target / (the mixture of the four that drew), self-normalised (`erl.replayHeldoutDrafts`
// replays the drafts without executing them; `erl.offPolicyPaired`). This is the ninth run's recipe rerun on a fresh
// machine (`data/recorded-runs/learning-armA60u`: generation 1 with sharper SFT data). The win rate is shown, whose
// pooled estimate predicted independent draws better than the direct one in every split-half check
// (`bench/erl/offpolicy.ts`, bench/erl/runs/2026-12-05-learning-14-off-policy.md); each interval resamples tasks, then
// tasks and whole draws.
// %%
{
  const rec = await kitReport.openRecordedRuns("learning-armA60u");
  const id = "learn-18627e2b";
  const sides = [["learn-b58c3093-d32", 0], ["learn-b58c3093-d32-teacher", 0], [`${id}-d32-sft`, 1], [`${id}-d32`, 1]] as const;
  const { labels, rowsOf, tasks, drafts: pool } = await erl.heldoutPool(rec, { loopId: id, sides: sides.map(([rows, generation]) => ({ rows, generation })) });
  const higher = gym.metricDirections(tasks);
  const name = (c: string) => ({ uniform: "uniform (g0)", default: "default (teacher)", [`${id}-g1-sft`]: "g1 after SFT", [`${id}-g1`]: "g1 (SFT, then RL)" })[c] ?? c;
  const m = { measure: "win" as const, normalisable: new Set<string>(), higherIsBetter: higher };
  const pairs = [[`${id}-g1`, "uniform"], [`${id}-g1`, "default"], [`${id}-g1-sft`, "default"], [`${id}-g1`, `${id}-g1-sft`], ["default", "uniform"]];
  tslab.display.html(htmlTable(pairs.map(([a, b]) => {
    const [ra, rb] = [rowsOf.get(a!)!, rowsOf.get(b!)!];
    const pooled = erl.offPolicyPaired(pool, labels, a!, b!, m);
    return { "A − B": `${name(a!)} − ${name(b!)}`, "direct win, tasks": ci(erl.pairedWinRate(ra, rb, higher)), "direct win, tasks and draws": ci(erl.winRateWithDraws(ra, rb, higher)),
      "pooled win, tasks": ci(pooled.tasks), "pooled win, tasks and draws": ci(pooled.withDraws) };
  }), { caption: `Win rate A − B on ${tasks.length} held-out tasks, 32 drafts per checkpoint: direct (each checkpoint's own drafts) and pooled (all ${pool.length} drafts)` }));
  rec.close();
}
// %% [markdown]
// **What it says.** Pooled, generation 1 beats its teacher on both intervals, and RL adds a small edge over the SFT
// checkpoint it started from; directly, both read level or across 0 once the draws are resampled. Against `uniform`
// generation 1 is level either way, and the teacher is no better than `uniform`: distillation improved on a teacher
// that was not ahead of the base. The benchmark counts a goal as met only where both estimators exclude 0.
// %% [markdown]
// ## All 85 held-out tasks: both measures at once (the latest measurement)
// The same recipe's loop (`learning-armA60u`, generations 1 and 2) measured on every task of the corpus' held-out
// suite: the policy level at 32 drafts per task (`bench/erl/reeval.ts --drafts 32 --heldout-count 85`) and the
// search level, a 6-step OpenMLE-Evo run per task at seeds 1–4 (`reeval.ts --search-level --heldout-count 85`).
// Direct comparisons, each interval resampling tasks, then tasks and their draws (a search's seeds are its draws);
// the last column is kit/erl `strictVerdict` on them (a measure beats where both intervals exclude 0). The rules were
// fixed before the figures (bench/erl/runs/2026-12-06-learning-17-85-tasks.md and the two records after it).
// %%
/** Direct readings of `[level, "A − B", A's rows, B's rows]` on the tasks of the first pair, with a verdict each. */
async function readings85(rec: Workspace, baselinesId: string, caption: string, pairs: [string, string, readonly (erl.HeldoutDraftRow | erl.HeldoutRow)[], readonly (erl.HeldoutDraftRow | erl.HeldoutRow)[]][]) {
  const taskIds = [...new Set(pairs[0]![2].map((r) => r.taskId))].sort();
  const higher = gym.metricDirections(await gym.storedTaskPackages(rec, taskIds));
  const norm = erl.normalisableTasks(await erl.loopBaselines(rec, baselinesId), higher);
  const rows = pairs.filter(([, , a, b]) => a.length && b.length).map(([level, name, a, b]) => {
    const r = erl.pairedReadings(a, b, norm, higher);
    return { level, "A − B": name, "Δ score, tasks": ci(r.score.tasks), "Δ score, tasks and draws": ci(r.score.withDraws),
      "win, tasks": ci(r.win.tasks), "win, tasks and draws": ci(r.win.withDraws),
      "verdict (direct)": erl.describeVerdict(erl.directVerdict(r)) };
  });
  tslab.display.html(htmlTable(rows, { caption: `${caption} on ${taskIds.length} held-out tasks (${taskIds.filter((t) => norm.has(t)).length} with a normalised score)` }));
}
{
  const rec = await kitReport.openRecordedRuns("learning-armA60u");
  const id = "learn-18627e2b";
  const [drafts, search] = [await erl.loadHeldoutDrafts(rec, `${id}-d32h85`), await erl.loadHeldout(rec, `${id}-s85`)];
  const teacher = await erl.loadHeldoutDrafts(rec, `${id}-d32h85-teacher`);
  const at = <R extends { generation: number }>(rows: readonly R[], g: number) => rows.filter((r) => r.generation === g);
  const gens = (level: string, all: readonly (erl.HeldoutDraftRow | erl.HeldoutRow)[]) =>
    ([["g1 − uniform (g0)", 1, 0], ["g2 − g1", 2, 1], ["g2 − uniform (g0)", 2, 0]] as const).map(
      ([name, a, b]) => [level, name, at(all, a), at(all, b)] as Parameters<typeof readings85>[3][number]);
  await readings85(rec, `${id}-d32h85`, `Loop ${id}`, [
    ...gens("policy", drafts), ["policy", "g1 − default (teacher)", at(drafts, 1), teacher], ...gens("search", search),
  ]);
  rec.close();
}
// %% [markdown]
// **What it says.** On the win rate, where every task weighs the same, generation 1 is ahead of `uniform` at both
// levels and ahead of its teacher, and generation 2 is ahead of generation 1 on the drafts, each with both intervals
// above 0. Generation 2's searches are ahead of generation 1's too (+0.059 at 4 seeds), but with the seeds resampled
// the interval starts at −0.001. The mean normalised score is level or below 0 at the search level: on one task the
// reference barely beats its trivial baseline (ROC AUC 0.5125 against 0.5), so 0.11 of AUC there is 9 normalised
// points, and that task carries the mean. The verdicts, and which figures decide them, are in bench/erl/runs/ (the
// records 2026-12-06-learning-17-85-tasks.md to 2026-12-06-learning-20-search-4-seeds.md).
// %% [markdown]
// ## Arm B on all 85 held-out tasks: self-taught from `default`
// The tenth run (`learning-armB60u`): generation 0 is the hand-set `default` and each generation learns from its own
// searches. Its policy level at 32 drafts on every held-out task (`reeval.ts --drafts 32 --heldout-count 85`;
// `default`'s rows are arm A's teacher rows, checked identical on the draws both measured), read directly here; the
// benchmark's verdict also reads the pooled off-policy estimator (`bench/erl/offpolicy.ts`, too slow for a notebook).
// %%
{
  const rec = await kitReport.openRecordedRuns("learning-armB60u");
  const drafts = await erl.loadHeldoutDrafts(rec, "learn-b6c48064-d32h85");
  const at = (g: number) => drafts.filter((r) => r.generation === g);
  await readings85(rec, "learn-18627e2b-d32h85", "Loop learn-b6c48064 (arm B), policy level at 32 drafts", [
    ["policy", "g1 − default (g0)", at(1), at(0)], ["policy", "g2 − g1", at(2), at(1)], ["policy", "g2 − default (g0)", at(2), at(0)],
  ]);
  rec.close();
}
// %% [markdown]
// **What it says.** Self-teaching from `default` trains beyond it on the win rate: generation 1 and generation 2 are
// each ahead of `default` with both intervals above 0, and generation 2 adds nothing to generation 1. The effect is
// small (a win probability of about 0.53) and the mean normalised score does not show it. With the pooled estimator
// beside these, this meets arm B's stretch goal by the rule fixed before the loop ran
// (bench/erl/runs/2026-12-06-learning-21-run10-arm-b.md).
// %% [markdown]
// ## The registered answer: the learning claim on the sealed confirm tasks
// Every reading above is **exploratory**: made on the old held-out suite, whose results chose the recipes and widened
// the suite after near misses. Issue 60 sealed 42 of those tasks (`confirm`, 25 studies, none sharing data with
// `train`) and registered the claim before any confirm program ran: registration `exp-d5916ae40a44`
// (bench/erl/plans/learning-claim.json) drafts 32 fresh programs per task from the same draws with `uniform`,
// `default` and generations 1 and 2 of the recorded loop `learning-armA60f` (arm A's recipe), and decides one thing:
// generation 2 ≻ `uniform` on the win rate, one-sided paired bootstrap over tasks at α 0.05, whose smallest detectable
// effect was 0.050. Its first completed run is the registered result; it is read here from the registrations' export
// (`data/recorded-runs/registrations`, exported after the result was read and written up in bench/erl/README.md).
// %%
{
  const regs = await kitReport.openRecordedRuns("registrations");
  const r = await experiment.readExperimentResults(regs, "exp-d5916ae40a44", { command: "notebook 09" });
  const pct = (x: number | null | undefined) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)} %`);
  tslab.display.html(htmlTable(r.plan.arms.map((a) => {
    const m = r.summary?.measures[a.name] ?? {};
    return { arm: a.name, "valid rate": pct(m.valid_rate), "Medal Average": pct(m.medal_average), "Human Rank": fmt(m.human_rank),
      [`win rate over ${r.plan.decision.comparison[1]}`]: pct(m.win_rate) };
  }), { caption: `${r.label}: ${r.cells.length} drafts on ${r.plan.tasks.length} confirm tasks (run ${r.run?.runId ?? "none"})` }));
  console.log(`registered decision: ${r.summary ? experiment.verdictLine(r.summary.verdict) : "no completed run"}`);
  regs.close();
}
// %% [markdown]
// **What it says.** The registered claim holds: on 42 tasks no setting was chosen on since the seal, generation 2's
// fresh drafts beat `uniform`'s on the same draws with probability about 0.55 (+0.052 over ½, 90 % interval
// [+0.023, +0.081], about the design's smallest detectable effect). On the paper's measures the same drafts win a
// medal on the kit's reference-zoo leaderboards 56.8 % of the time against 49.5 %, and generation 1 lies between. It
// is the policy level only, and small; the search-level registration (`exp-9088bfc7427b`), which asks whether
// searches driven by generation 2 end on better champions, has not run yet. The confirm tasks were part of the old
// held-out suite that chose this recipe, so the result is safe from new choices, not from old ones
// (bench/erl/README.md, "Current status").
// %% [markdown]
// ## The mechanics: a smoke loop
// The same calls on a loop run here and now (1 training task, 1 held-out task, 1 generation, two programs per
// stage). A killed loop resumes at the first stage not done; the stage records show where it is.
// %%
const wsDir = join(mkdtempSync(join(tmpdir(), "nb09-")), "ws");
const loopId = "nb-smoke";
{
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
tslab.display.html(htmlTable((await erl.loopStages(ws, loopId)).map((s) => ({ generation: s.generation, stage: s.stage, status: s.status })), { caption: `Stage records of loop ${loopId}` }));
const smoke = await heldoutMeasures(ws, loopId);
await whatMoved(ws, smoke.checkpoints, smoke.heldTasks);
await composition(ws, loopId); // its minutes are clock readings of a 40 s run: left out
ws.close();
