// Re-evaluate the checkpoints of a finished loop on its held-out tasks with the current kit (issue 13 bench).
// Same checkpoints, harness, step budget and seeds as the loop's own held-out stage; the rows are stored under
// loop id `<loop>-<tag>` (run ids `<loop>-<tag>-h<k>-<task>-s<seed>`), so the loop's own rows stay as measured.
// Programs identical to ones already executed reuse their stored records.
//   npx tsx bench/erl/reeval.ts --workspace workspaces/bench-loop --loop bench-7ddeb468 --tag re1
// --search-level (issue 30's loops): the loop's held-out search stage as the current kit runs it, i.e. its
// `heldout` steps, seeds and priors exclusion on `searchSubset`'s tasks (those with a normalised score first), on the
// warm executor; `learning.ts --search-loop <loop>-<tag>` reports those rows beside the loop's own drafts.
// --drafts N (issue 30's loops): the policy level again with N fresh drafts per held-out task instead of the loop's
// own count, same draw seeds (draws 0 … n−1 repeat the loop's own programs, so their stored records are reused), for
// every checkpoint the loop measured and for the teacher's drafts (`<loop>-teacher`) when they exist (stored as
// `<loop>-<tag>-teacher`); `noise.ts --loop <loop> --rows <loop>-<tag>` reads them. With --sft also each generation's
// SFT checkpoint before RL (`<loop>-g<k>-sft`, stored as `<loop>-<tag>-sft` generation k): `versus.ts` pairs them.
// --checkpoint NAME: only that checkpoint (e.g. one retrained with `openmle sft train`), as generation 1 of `<loop>-<tag>`.
// --heldout-count N [--heldout suite:dev] (with --drafts): the first N tasks of the suite by id instead of the
// loop's held-out tasks (e.g. more tasks than the loop measured); baselines the loop lacks are run here and stored
// under `<loop>-<tag>` (versus.ts and offpolicy.ts --baselines read them). --reuse ROWS[,ROWS]: a task whose rows a
// listed row set already holds for the same checkpoint at the same number of draws (same draw seeds) is copied from
// there instead of drafted again (rows imported from another machine's workspace have no execution records here);
// the baselines stored under a listed row set apply to its tasks, so only tasks none of them covers run baselines.
// --generations 0,1: only those generations of the loop (the teacher's rows come with generation 0).
// With --search-level, --heldout-count N searches the first N tasks of the suite and --search-tasks K (0 = all) how
// many of them (searchSubset's order); baselines as for --drafts (--reuse ROWS supplies stored ones). --seeds 1,2,3,4:
// other seeds than the loop's (runs already finished under the same ids are read back, so seeds can be added; pass
// every seed already stored too: a generation's rows are replaced as a whole, so reeval refuses to drop stored seeds).
import {
  evaluateHeldout, heldoutBaselines, heldoutDrafts, listCheckpoints, loadHeldout, loadHeldoutDrafts, loopBaselines, loopConfig,
  loopTaskSets, normalisableTasks, normalisedUnder, replaceHeldoutDrafts, resolvePolicyParams, saveBaselines, searchSubset,
  stageSettings, type HeldoutDraftRow,
} from "../../kit/erl/index.js";
import { metricDirections, resolveTask } from "../../kit/gym/index.js";
import { createCheckpointPolicy } from "../../kit/policy/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const log = (m: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${m}`);
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "–" : x.toPrecision(4));
const ws = await openWorkspace(arg("workspace", "workspaces/bench-loop"));
const loopId = arg("loop", "");
const id = `${loopId}-${arg("tag", "re1")}`;
const searchLevel = process.argv.includes("--search-level");
const drafts = Number(arg("drafts", "0"));
const executor = new WarmExecutor();
try {
  const [cfg, sets] = [await loopConfig(ws, loopId), await loopTaskSets(ws, loopId)];
  if (!cfg || !sets) throw new Error(`no loop "${loopId}" in this workspace`);
  const heldCount = Number(arg("heldout-count", "0"));
  if (heldCount > 0 && drafts <= 0 && !searchLevel) throw new Error("--heldout-count needs a level: pass --drafts N or --search-level");
  const heldIds = heldCount > 0 ? [...(await benchTasks(arg("heldout", "suite:dev")))].sort().slice(0, heldCount) : sets.heldout;
  const tasks = await Promise.all(heldIds.map((t) => resolveTask(t)));
  const reuseIds = arg("reuse", "").split(",").filter(Boolean);
  // Reused rows keep the baselines they were normalised under (stored with their row set, if any).
  let baselines = await loopBaselines(ws, loopId);
  for (const r of reuseIds) baselines = { ...baselines, ...(await loopBaselines(ws, r)) };
  const lacking = tasks.filter((t) => !(t.meta.id in baselines));
  if (lacking.length) {
    console.error(`baselines of ${lacking.length} tasks the loop did not measure …`);
    baselines = { ...baselines, ...(await heldoutBaselines(ws, lacking, cfg.baselines, { executor })) };
  }
  if (heldCount > 0) await saveBaselines(ws, id, Object.fromEntries(tasks.flatMap((t) => (baselines[t.meta.id] ? [[t.meta.id, baselines[t.meta.id]!]] : []))));
  const reuse = await Promise.all(reuseIds.map((r) => loadHeldoutDrafts(ws, r)));
  // Rows of `checkpoint` on `task` at draws 0 … drafts−1 from a --reuse row set, or null.
  const reusable = (checkpoint: string, task: string): HeldoutDraftRow[] | null => {
    for (const rows of reuse) {
      const got = rows.filter((r) => r.checkpoint === checkpoint && r.taskId === task);
      if (got.length === drafts && got.every((r, i) => r.draft === i)) return got;
    }
    return null;
  };
  // Each generation's checkpoint, as either level's rows name it (a loop recorded between its two held-out stages
  // has a generation's policy rows but not yet its search rows).
  const measured = [...(await loadHeldoutDrafts(ws, loopId)), ...(await loadHeldout(ws, loopId))];
  const seen = new Map(measured.map((h) => [h.generation, h.checkpoint]));
  const only = arg("checkpoint", "");
  const gens = arg("generations", "").split(",").filter(Boolean).map(Number);
  const wanted = (g: number) => !gens.length || gens.includes(g);
  const checkpoints = only ? [{ generation: 1, checkpoint: only, into: id }]
    : [...seen].sort(([a], [b]) => a - b).filter(([g]) => wanted(g)).map(([generation, checkpoint]) => ({ generation, checkpoint, into: id }));
  const teacher = drafts > 0 && !only && wanted(0) ? (await loadHeldoutDrafts(ws, `${loopId}-teacher`))[0] : undefined;
  if (teacher) checkpoints.push({ generation: 0, checkpoint: teacher.checkpoint, into: `${id}-teacher` });
  if (drafts > 0 && !only && process.argv.includes("--sft")) {
    const names = new Set((await listCheckpoints(ws)).map((c) => c.name));
    for (const [g] of seen) if (wanted(g) && names.has(`${loopId}-g${g}-sft`)) checkpoints.push({ generation: g, checkpoint: `${loopId}-g${g}-sft`, into: `${id}-sft` });
  }
  for (const { generation, checkpoint, into } of checkpoints) {
    const { params } = await resolvePolicyParams(checkpoint, ws);
    const t0 = Date.now();
    const policy = createCheckpointPolicy(params, checkpoint);
    if (drafts > 0) {
      const st = stageSettings(cfg);
      const fresh = tasks.filter((t) => !reusable(checkpoint, t.meta.id));
      for (const t of tasks.filter((x) => !fresh.includes(x))) {
        const b = baselines[t.meta.id]; // normalised again under this row set's baselines
        await replaceHeldoutDrafts(ws, into, generation, t.meta.id, reusable(checkpoint, t.meta.id)!
          .map((r) => ({ ...r, loopId: into, generation, normalized: normalisedUnder(r.testScore, b, t.meta.higherIsBetter) })));
      }
      if (fresh.length < tasks.length) log(`${into} generation ${generation}: ${tasks.length - fresh.length} tasks' rows reused`);
      await heldoutDrafts({ workspace: ws, loopId: into, generation, checkpoint, policy, tasks: fresh, drafts, seed: st.heldout.draftSeed,
        perRunTimeoutS: st.evolve.perRunTimeoutS ?? 120, memoryMb: st.evolve.memoryMb, concurrency: st.evolve.workers ?? 1, baselines,
        evaluate: (job) => runSandbox({ ...job, workspace: ws, executor }),
        onTask: (task, rows, done, of) => log(`${into} generation ${generation}: ${task} (${done}/${of}), ${rows.filter((r) => r.testScore !== null).length}/${rows.length} graded`) });
    } else if (searchLevel) {
      const h = stageSettings(cfg).heldout;
      const subset = searchSubset(tasks, Number(arg("search-tasks", String(h.searchTasks))), normalisableTasks(baselines, metricDirections(tasks)));
      const seeds = arg("seeds", "") ? arg("seeds", "").split(",").map(Number) : h.seeds;
      // The generation's rows are stored as a whole: a seed stored before but not passed now would be dropped.
      const stored = [...new Set((await loadHeldout(ws, id)).filter((r) => r.generation === generation).map((r) => r.seed))];
      const dropped = stored.filter((s) => !seeds.includes(s)).sort((a, b) => a - b);
      if (dropped.length)
        throw new Error(`${id} generation ${generation} already holds seeds ${dropped.join(",")}: pass --seeds with every stored ` +
          `seed and the new ones (e.g. --seeds ${[...new Set([...stored, ...seeds])].sort((a, b) => a - b).join(",")}); finished runs are read back`);
      await evaluateHeldout({ workspace: ws, loopId: id, generation: Number(generation), checkpoint, policy, tasks: subset, seeds,
        evolve: { ...stageSettings(cfg).evolve, steps: h.steps, priorsExcludeTasks: tasks.map((t) => t.meta.id) }, baselines,
        evaluate: (job) => runSandbox({ ...job, executor }), // evolve stores its own records
        onEvent: (e) => { if (e.type === "run-end") log(`${e.summary.runId}: champion ${f3(e.summary.champion?.testScore)}`); } });
    } else
      await evaluateHeldout({ workspace: ws, loopId: id, generation: Number(generation), checkpoint, policy,
        tasks, seeds: cfg.seeds ?? stageSettings(cfg).seeds, evolve: stageSettings(cfg).evolve, baselines });
    log(`${into} generation ${generation} (${checkpoint}) re-evaluated in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  console.log(`re-evaluated as loop id ${id}: npx tsx bench/erl/loop.ts --table-only with the loop's arguments prints the loop's own rows; this table is the re-evaluation's:`);
} finally {
  await executor.close();
  ws.close();
}
