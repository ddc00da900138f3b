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
import { evaluateHeldout, heldoutDrafts, listCheckpoints, loadHeldout, loadHeldoutDrafts, loopBaselines, loopConfig, loopTaskSets, normalisableTasks, resolvePolicyParams, searchSubset, stageSettings } from "../../kit/erl/index.js";
import { metricDirections, resolveTask } from "../../kit/gym/index.js";
import { createCheckpointPolicy } from "../../kit/policy/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const ws = await openWorkspace(arg("workspace", "workspaces/bench-loop"));
const loopId = arg("loop", "");
const id = `${loopId}-${arg("tag", "re1")}`;
const searchLevel = process.argv.includes("--search-level");
const drafts = Number(arg("drafts", "0"));
const executor = new WarmExecutor();
try {
  const [cfg, sets] = [await loopConfig(ws, loopId), await loopTaskSets(ws, loopId)];
  if (!cfg || !sets) throw new Error(`no loop "${loopId}" in this workspace`);
  const tasks = await Promise.all(sets.heldout.map((t) => resolveTask(t)));
  const baselines = await loopBaselines(ws, loopId);
  const measured = drafts > 0 ? await loadHeldoutDrafts(ws, loopId) : await loadHeldout(ws, loopId);
  const seen = new Map(measured.map((h) => [h.generation, h.checkpoint]));
  const only = arg("checkpoint", "");
  const checkpoints = only ? [{ generation: 1, checkpoint: only, into: id }]
    : [...seen].sort(([a], [b]) => a - b).map(([generation, checkpoint]) => ({ generation, checkpoint, into: id }));
  const teacher = drafts > 0 && !only ? (await loadHeldoutDrafts(ws, `${loopId}-teacher`))[0] : undefined;
  if (teacher) checkpoints.push({ generation: 0, checkpoint: teacher.checkpoint, into: `${id}-teacher` });
  if (drafts > 0 && !only && process.argv.includes("--sft")) {
    const names = new Set((await listCheckpoints(ws)).map((c) => c.name));
    for (const [g] of seen) if (names.has(`${loopId}-g${g}-sft`)) checkpoints.push({ generation: g, checkpoint: `${loopId}-g${g}-sft`, into: `${id}-sft` });
  }
  for (const { generation, checkpoint, into } of checkpoints) {
    const { params } = await resolvePolicyParams(checkpoint, ws);
    const t0 = Date.now();
    const policy = createCheckpointPolicy(params, checkpoint);
    if (drafts > 0) {
      const st = stageSettings(cfg);
      await heldoutDrafts({ workspace: ws, loopId: into, generation, checkpoint, policy, tasks, drafts, seed: st.heldout.draftSeed,
        perRunTimeoutS: st.evolve.perRunTimeoutS ?? 120, memoryMb: st.evolve.memoryMb, concurrency: st.evolve.workers ?? 1, baselines,
        evaluate: (job) => runSandbox({ ...job, workspace: ws, executor }) });
    } else if (searchLevel) {
      const h = stageSettings(cfg).heldout;
      const subset = searchSubset(tasks, h.searchTasks, normalisableTasks(baselines, metricDirections(tasks)));
      await evaluateHeldout({ workspace: ws, loopId: id, generation: Number(generation), checkpoint, policy, tasks: subset, seeds: h.seeds,
        evolve: { ...stageSettings(cfg).evolve, steps: h.steps, priorsExcludeTasks: tasks.map((t) => t.meta.id) }, baselines,
        evaluate: (job) => runSandbox({ ...job, executor }) }); // evolve stores its own records
    } else
      await evaluateHeldout({ workspace: ws, loopId: id, generation: Number(generation), checkpoint, policy,
        tasks, seeds: cfg.seeds ?? stageSettings(cfg).seeds, evolve: stageSettings(cfg).evolve, baselines });
    console.error(`${into} generation ${generation} (${checkpoint}) re-evaluated in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  console.log(`re-evaluated as loop id ${id}: npx tsx bench/erl/loop.ts --table-only with the loop's arguments prints the loop's own rows; this table is the re-evaluation's:`);
} finally {
  await executor.close();
  ws.close();
}
