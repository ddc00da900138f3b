// What each training stage of a finished loop did on the tasks it trained on (issue 30, "what limited them"; the
// training side, so nothing here reads the held-out suite): fresh drafts of a generation's SFT checkpoint and of its
// RL checkpoint (the generation's final one) on the first --tasks of the loop's training tasks by id, with the loop's
// draw seeds, compared by paired win rate (no baselines needed: training tasks have none), tasks only and tasks and
// draws resampled. Rows go to loop id `<loop>-insample-g<generation>-d<N>`: generation 1 = the SFT checkpoint, 2 = the RL one.
//   npx tsx bench/erl/insample.ts --workspace workspaces/bench-learning-a60 --loop learn-b58c3093 --generation 1 --tasks 20 --drafts 32
import { heldoutDrafts, loadHeldoutDrafts, loopConfig, loopTaskSets, pairedWinRate, resolvePolicyParams, stageSettings, winRateWithDraws } from "../../kit/erl/index.js";
import type { PairedInterval } from "../../kit/eval/index.js";
import { metricDirections, resolveTask } from "../../kit/gym/index.js";
import { createCheckpointPolicy } from "../../kit/policy/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const loopId = arg("loop", "");
if (!loopId) throw new Error("pass --loop ID of a finished loop (bench/erl/learning.ts prints it)");
const g = Number(arg("generation", "1"));
const drafts = Number(arg("drafts", "32"));
const rowsId = `${loopId}-insample-g${g}-d${drafts}`;
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}] n ${x.n}` : "–");
const ws = await openWorkspace(arg("workspace", "workspaces/bench-learning"));
const executor = new WarmExecutor();
try {
  const [cfg, sets] = [await loopConfig(ws, loopId), await loopTaskSets(ws, loopId)];
  if (!cfg || !sets) throw new Error(`no loop "${loopId}" in this workspace`);
  const s = stageSettings(cfg);
  const ids = [...sets.train].sort().slice(0, Number(arg("tasks", "20")));
  const tasks = await Promise.all(ids.map((t) => resolveTask(t)));
  const stages = [[1, `${loopId}-g${g}-sft`], [2, `${loopId}-g${g}`]] as const;
  const have = new Set((await loadHeldoutDrafts(ws, rowsId)).map((r) => r.generation));
  for (const [generation, checkpoint] of stages) {
    if (have.has(generation)) continue;
    const t0 = Date.now();
    const { params } = await resolvePolicyParams(checkpoint, ws);
    await heldoutDrafts({ workspace: ws, loopId: rowsId, generation, checkpoint, policy: createCheckpointPolicy(params, checkpoint), tasks,
      drafts, seed: s.heldout.draftSeed, perRunTimeoutS: s.evolve.perRunTimeoutS ?? 120, memoryMb: s.evolve.memoryMb,
      concurrency: s.evolve.workers ?? 1, baselines: {}, evaluate: (job) => runSandbox({ ...job, workspace: ws, executor }) });
    console.error(`${checkpoint}: ${tasks.length} training tasks × ${drafts} drafts in ${((Date.now() - t0) / 60000).toFixed(1)} min`);
  }
  const rows = await loadHeldoutDrafts(ws, rowsId);
  const [sft, rl] = [1, 2].map((k) => rows.filter((r) => r.generation === k));
  const higher = metricDirections(tasks);
  const valid = (rs: typeof rows) => rs.filter((r) => r.testScore !== null).length / Math.max(1, rs.length);
  console.log(`loop ${loopId}, generation ${g}: its SFT and RL checkpoints on the first ${tasks.length} of its ${sets.train.length} training tasks, ${drafts} drafts each\n`);
  console.log("| comparison | valid (SFT → RL) | win, tasks resampled | win, tasks and draws |\n|---|---|---|---|");
  console.log(`| RL − SFT | ${f(valid(sft), 2)} → ${f(valid(rl), 2)} | ${ci(pairedWinRate(rl, sft, higher))} | ${ci(winRateWithDraws(rl, sft, higher))} |`);
} finally {
  await executor.close();
  ws.close();
}
