// What the loop's recipe can gain when transfer is taken out of the way (issue 30, "what limited them"): an ORACLE that
// runs one generation of a finished loop's own recipe (its teacher evolves, collectSft, SFT from the loop's generation
// 0, trainRL; the loop's stage settings) on the HELD-OUT tasks themselves, then measures the result at the policy level
// with the loop's draw seeds, so it compares draw for draw with `reeval.ts --drafts N`'s rows of the loop.
// - oracle − g1 large: the recipe and parametrisation could gain on these tasks; what the loop's generation 1 lacks is
//   transfer from the training tasks. oracle ≈ g1: the recipe or the parametrisation is the limit, not the task split.
// The oracle sees the held-out tasks, so it is a diagnostic only: never a generation, a setting or a selection.
// Its training draws are disjoint from the measure's (collect seed --seed, evolve seeds --seeds; the measure's draws
// are keyedSeed(draftSeed, "<task>#<i>")). Each stage is skipped when its output is already stored (rerun to resume).
//   npx tsx bench/erl/ceiling.ts --workspace workspaces/bench-learning-a60 --loop learn-b58c3093 --drafts 32 \
//     [--tag ceiling] [--seed 1001] [--seeds 101,102] [--measure rl,sft] [--vs learn-b58c3093-d32] [--data-tag T --sft JSON]
// Rows go to loop id `<loop>-<tag>-d<N>`: generation 1 is the SFT checkpoint, generation 2 the RL one. With --vs the
// script prints the oracle's paired differences (both intervals, as noise.ts) against every generation of those rows
// and against `<vs>-teacher`.
import {
  collectSft, credit, evolveRun, loadDataset, heldoutDrafts, listCheckpoints, listDatasets, loadHeldoutDrafts, loopBaselines, loopConfig,
  loopTaskSets, normalisableTasks, pairedGenerations, pairedWinRate, pairedWithDraws, resolvePolicyParams, sftTrain,
  stageSettings, taskFigures, trainRL, winRateWithDraws, type HeldoutDraftRow,
} from "../../kit/erl/index.js";
import { normalizedScore, type PairedInterval } from "../../kit/eval/index.js";
import { runHasSuccess } from "../../kit/evo/index.js";
import { metricDirections, resolveTask } from "../../kit/gym/index.js";
import { createCheckpointPolicy } from "../../kit/policy/index.js";
import { codeHash, runSandbox, testScoresByCode, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace, readRun } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const loopId = arg("loop", "");
if (!loopId) throw new Error("pass --loop ID of a finished loop (bench/erl/learning.ts prints it)");
const tag = arg("tag", "ceiling");
const drafts = Number(arg("drafts", "32"));
const collectSeed = Number(arg("seed", "1001"));
const evolveSeeds = arg("seeds", "101,102").split(",").map(Number);
const measure = arg("measure", "rl,sft").split(",").filter(Boolean);
const base = `${loopId}-${tag}`;
// --data-tag T: reuse the evolve runs and dataset of an earlier oracle (`<loop>-T-…`), e.g. to retrain it with
// --sft '{"conditioned":true}' (a JSON overlay on the loop's SFT settings) and compare parametrisations on one dataset.
const dataBase = `${loopId}-${arg("data-tag", tag)}`;
const sftOverlay = JSON.parse(arg("sft", "{}")) as Record<string, unknown>;
const rowsId = `${base}-d${drafts}`;
const log = (m: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${m}`);
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}]` : "–");

const ws = await openWorkspace(arg("workspace", "workspaces/bench-learning"));
const executor = new WarmExecutor();
const evaluate = (job: Parameters<typeof runSandbox>[0]) => runSandbox({ ...job, workspace: ws, executor });
try {
  const [cfg, sets] = [await loopConfig(ws, loopId), await loopTaskSets(ws, loopId)];
  if (!cfg || !sets) throw new Error(`no loop "${loopId}" in this workspace`);
  if (!cfg.teacher) throw new Error(`loop ${loopId} has no teacher: the oracle distils the loop's teacher`);
  const s = stageSettings(cfg);
  const tasks = await Promise.all(sets.heldout.map((t) => resolveTask(t)));
  const baselines = await loopBaselines(ws, loopId);
  const start = await resolvePolicyParams(cfg.from, ws);
  const teacher = await resolvePolicyParams(cfg.teacher, ws);
  const teacherPolicy = createCheckpointPolicy(teacher.params, teacher.checkpoint);
  const have = new Set((await listCheckpoints(ws)).map((c) => c.name));
  const t0 = Date.now();
  const lap = (what: string) => log(`${what} (${((Date.now() - t0) / 60000).toFixed(1)} min so far)`);

  // 1. The teacher evolves every held-out task per seed (the loop's evolve settings; priors from any task).
  const runs: string[] = [];
  for (const task of tasks)
    for (const seed of evolveSeeds) {
      const runId = `${dataBase}-${task.meta.id}-s${seed}`;
      await evolveRun(ws, task, runId, teacherPolicy, { ...s.evolve, seed }, { evaluate: (job) => runSandbox({ ...job, executor }) });
      if (await runHasSuccess(ws, runId)) runs.push(runId);
      log(`evolve ${runId} done`);
    }
  lap(`evolve: ${runs.length} runs with a valid score`);
  // 2. collectSft on the held-out tasks from those runs and the teacher's fresh drafts.
  const dataset = `${dataBase}-data`;
  if (!(await listDatasets(ws)).some((d) => d.dataset === dataset)) {
    const r = await collectSft({ workspace: ws, dataset, tasks, teachers: { primary: teacherPolicy }, runs,
      config: { ...s.collect, seed: collectSeed }, evaluate });
    lap(`collect: ${r.examples.length} examples`);
  }
  // 3. SFT from the loop's generation 0; 4. trainRL from the SFT checkpoint on the held-out tasks.
  const sftName = `${base}-sft`;
  if (!have.has(sftName)) await sftTrain(ws, { dataset, from: start.checkpoint, to: sftName, config: { ...s.sft, ...sftOverlay }, replace: true });
  const rlName = `${base}-rl`;
  const rlRow = await readRun(ws, "rl_runs", rlName);
  if (measure.includes("rl") && rlRow?.status !== "finished")
    await trainRL({ workspace: ws, tasks, from: sftName, to: rlName, config: { ...s.rl, seed: collectSeed }, executor,
      ...(rlRow ? { resume: rlName } : { runId: rlName }) });
  lap("training done");
  // 5. The policy level at the loop's draw seeds: generation 1 = the SFT checkpoint, generation 2 = the RL one.
  const measured = new Set((await loadHeldoutDrafts(ws, rowsId)).map((r) => r.generation));
  for (const [generation, checkpoint] of [[2, rlName], [1, sftName]] as const) {
    if (!measure.includes(generation === 2 ? "rl" : "sft") || measured.has(generation)) continue;
    const { params } = await resolvePolicyParams(checkpoint, ws);
    await heldoutDrafts({ workspace: ws, loopId: rowsId, generation, checkpoint, policy: createCheckpointPolicy(params, checkpoint),
      tasks, drafts, seed: s.heldout.draftSeed, perRunTimeoutS: s.evolve.perRunTimeoutS ?? 120, memoryMb: s.evolve.memoryMb,
      concurrency: s.evolve.workers ?? 1, baselines, evaluate });
    lap(`measured ${checkpoint} at ${drafts} drafts`);
  }
  // 6. The oracle against the loop's own rows, draw for draw.
  const vs = arg("vs", "");
  if (vs) {
    const higher = metricDirections(tasks);
    const norm = normalisableTasks(baselines, higher);
    const oracle = await loadHeldoutDrafts(ws, rowsId);
    const theirs = await loadHeldoutDrafts(ws, vs);
    const groups: [string, HeldoutDraftRow[]][] = [...new Set(theirs.map((r) => r.generation))]
      .sort((a, b) => a - b)
      .map((g) => [`g${g}`, theirs.filter((r) => r.generation === g)]);
    const t = await loadHeldoutDrafts(ws, `${vs}-teacher`);
    if (t.length) groups.push(["teacher", t]);
    console.log(`loop ${loopId}: oracle (${tag}) trained on its ${tasks.length} held-out tasks, ${norm.size} with a normalised score; rows ${rowsId} against ${vs}\n`);
    console.log("| comparison | Δ score, tasks resampled | Δ score, tasks and draws | win, tasks resampled | win, tasks and draws |");
    console.log("|---|---|---|---|---|");
    for (const [og, oname] of [[1, "oracle SFT"], [2, "oracle SFT+RL"]] as const) {
      const a = oracle.filter((r) => r.generation === og);
      if (!a.length) continue;
      for (const [name, b] of groups)
        console.log(`| ${oname} − ${name} | ${ci(pairedGenerations(taskFigures(a, norm), taskFigures(b, norm)))} | ${ci(pairedWithDraws(a, b, norm))} | ` +
          `${ci(pairedWinRate(a, b, higher))} | ${ci(winRateWithDraws(a, b, higher))} |`);
    }
    // 7. How much better the oracle's SFT data is than the teacher's drafts, and how much of that lead the policy
    // trained on it kept, per normalisable task: data = mean credit of the dataset's programs on the hidden test (their
    // stored graded runs; Draft examples only, and all operators), teacher = mean credit of `<vs>-teacher`'s drafts,
    // oracle = the oracle SFT checkpoint's drafts (the same draws).
    const examples = await loadDataset(ws, dataset);
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    const rowsOf = (rows: HeldoutDraftRow[], id: string) => rows.filter((r) => r.taskId === id).map((r) => credit(r.testScore !== null, r.normalized));
    const sft = oracle.filter((r) => r.generation === 1);
    type Lead = { id: string; n: number; drafts: number | null; all: number | null; teacher: number | null; oracle: number | null };
    const lead: Lead[] = [];
    for (const id of [...norm].sort()) {
      const b = baselines[id]!;
      const graded = await testScoresByCode(ws, id);
      const of = (ops: (o: string) => boolean) => examples.filter((e) => e.taskId === id && ops(e.operator)).flatMap((e) => {
        const t = graded.get(codeHash(e.program));
        return t === undefined ? [] : [credit(true, normalizedScore(t, { trivial: b.trivial!, reference: b.reference! }, higher(id)))];
      });
      lead.push({ id, n: examples.filter((e) => e.taskId === id).length, drafts: mean(of((o) => o === "draft")), all: mean(of(() => true)),
        teacher: mean(rowsOf(t, id)), oracle: mean(rowsOf(sft, id)) });
    }
    if (t.length && sft.length) {
      // data − teacher and oracle − teacher, where all three are measured
      const deltas = (r: Lead) => (r.drafts === null || r.teacher === null || r.oracle === null ? null : [r.drafts - r.teacher, r.oracle - r.teacher] as const);
      console.log(`\n| task | SFT examples | data, drafts | data, all operators | teacher's drafts | oracle SFT's drafts | data − teacher | oracle − teacher |\n|---|---|---|---|---|---|---|---|`);
      for (const r of lead) console.log(`| ${r.id} | ${r.n} | ${f(r.drafts)} | ${f(r.all)} | ${f(r.teacher)} | ${f(r.oracle)} | ${f(deltas(r)?.[0])} | ${f(deltas(r)?.[1])} |`);
      // Medians and counts, not means: two weak-reference tasks (normalised scores near 5 and 10) would carry a mean.
      const median = (xs: number[]) => { const v = [...xs].sort((x, y) => x - y); const k = v.length >> 1; return v.length % 2 ? v[k]! : (v[k - 1]! + v[k]!) / 2; };
      const ds = lead.flatMap((r) => { const d = deltas(r); return d ? [d] : []; });
      const dl = ds.map((d) => d[0]), ol = ds.map((d) => d[1]);
      console.log(`\nover ${ds.length} tasks with SFT examples: the data's Draft programs lead the teacher's drafts on ${dl.filter((x) => x > 0).length} ` +
        `(median lead ${f(median(dl))}); the oracle SFT's drafts lead on ${ol.filter((x) => x > 0).length} (median ${f(median(ol))})`);
    }
  }
} finally {
  await executor.close();
  ws.close();
}
