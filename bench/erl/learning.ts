// Learning in effect (issue 30): a loop from `--from` (uniform or default) with an optional `--teacher`, measured per
// generation on the corpus' held-out suite by both held-out measures (fresh drafts; short searches), paired over tasks
// at identical draws and seeds, with how far each generation moved (mean KL on held-out decisions), the SFT data's
// composition beside the paper's and the time per stage. Resumes: the same arguments give the same loop id.
//   npx tsx bench/erl/learning.ts --workspace workspaces/bench-learning --from uniform --teacher default \
//     [--generations 2] [--preset laptop] [--train suite:train --train-count 60] [--heldout suite:dev
//     --heldout-count 20] [--overrides '{"rl":{"steps":6}}'] [--teacher-drafts] [--table-only] [--search-loop ID]
// --teacher-drafts also measures the teacher's own policy level on the same draws (loop id `<loop>-teacher`).
import {
  draftProbes, heldoutDrafts, heldoutReport, loadHeldout, loopBaselines, loadHeldoutDrafts, loop, loopStages, normalisableTasks,
  policyKl, resolvePolicyParams, stageSettings, LoopConfig, pairedReadings, describeVerdict, directVerdict, type CompositionRow,
  type GenerationHeldout, type LoopResult,
} from "../../kit/erl/index.js";
import type { PairedInterval } from "../../kit/eval/index.js";
import { metricDirections, resolveTask, type TaskPackage } from "../../kit/gym/index.js";
import { createCheckpointPolicy } from "../../kit/policy/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { configHash, openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const flag = (name: string) => process.argv.includes(`--${name}`);
const sorted = (xs: string[]) => [...xs].sort();
const train = sorted(await benchTasks(arg("train", "suite:train"))).slice(0, Number(arg("train-count", "60")));
const held = sorted(await benchTasks(arg("heldout", "suite:dev"))).slice(0, Number(arg("heldout-count", "20")));
const teacher = arg("teacher", "");
const config = LoopConfig.parse({
  preset: arg("preset", "laptop"),
  generations: Number(arg("generations", "2")),
  from: arg("from", "uniform"),
  ...(teacher ? { teacher } : {}),
  ...JSON.parse(arg("overrides", "{}")),
});
const wsDir = arg("workspace", "workspaces/bench-learning");
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}] n ${x.n}` : "–");
const PAPER = { draft: 74.0, debug: 16.5, improve: 6.6, crossover: 2.8 }; // docs/paper-map.md: SFT composition

async function main() {
  const load = async (ids: string[]) => { const ts: TaskPackage[] = []; for (const id of ids) ts.push(await resolveTask(id)); return ts; };
  const [trainTasks, heldoutTasks] = [await load(train), await load(held)];
  // The id names what runs: the task sets, the config and the preset's effective stage settings (a retuned preset
  // gives a new id; pass --loop-id to read or resume a loop started before).
  const loopId = arg("loop-id", `learn-${configHash({ train, held, config, stages: stageSettings(config) }).slice(0, 8)}`);
  const ws = await openWorkspace(wsDir);
  const executor = new WarmExecutor(); // the warm start the laptop preset is sized by (bench/throughput)
  const t0 = Date.now();
  try {
    const log = (m: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${m}`);
    let res: LoopResult | null = null;
    if (!flag("table-only"))
      res = await loop({ workspace: ws, executor, loopId, trainTasks, heldoutTasks, config, onEvent: (e) => {
        if (e.type === "stage-start" || e.type === "stage-skipped") log(`generation ${e.generation}: ${e.stage}${e.type === "stage-skipped" ? " (done earlier)" : ""}`);
      } });
    const checkpoints = res?.checkpoints ?? [...new Set((await loadHeldout(ws, loopId)).map((r) => r.checkpoint))];
    const baselines = res?.baselines ?? (await loopBaselines(ws, loopId));
    const higher = metricDirections(heldoutTasks);
    const norm = normalisableTasks(baselines, higher);
    const searchLoop = arg("search-loop", loopId); // e.g. reeval.ts --search-level's rows (`<loop>-<tag>`)
    const report = heldoutReport(checkpoints, await loadHeldoutDrafts(ws, loopId), await loadHeldout(ws, searchLoop), norm, higher);
    console.log(`loop ${loopId}: from ${config.from}${teacher ? `, teacher ${teacher} for the first ${config.teacherGenerations} generation(s), then self-taught` : ", self-taught"}; ` +
      `${train.length} training tasks, ${held.length} held-out tasks (${norm.size} with a normalised score); ${((Date.now() - t0) / 60000).toFixed(1)} min this call` +
      `${searchLoop === loopId ? "" : `; search level from ${searchLoop}`}\n`);
    // Per generation: Δ score with the previous generation and with generation 0, tasks resampled (kit/erl heldoutReport).
    const vs = (g: GenerationHeldout) => [g.vsPrevious, g.vsFirst];
    console.log("| generation | checkpoint | policy valid | policy score [95 %] | Δ previous | Δ generation 0 | search score [95 %] | Δ previous | Δ generation 0 |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const g of report)
      console.log(`| ${g.generation} | ${g.checkpoint} | ${f(g.policy.validRate, 2)} | ${ci(g.policy.score)} | ${vs(g).map((v) => ci(v?.policy.score.tasks ?? null)).join(" | ")} | ` +
        `${ci(g.search.score)} | ${vs(g).map((v) => ci(v?.search.score.tasks ?? null)).join(" | ")} |`);
    // Both measures on both levels, each interval twice: tasks resampled, and each task's draws (drafts, seeds)
    // resampled too (bench/erl/noise.ts has the full split): a noisy task that landed near the mean cannot narrow the
    // second. Win rate: every held-out task weighs the same, normalisable or not.
    console.log("\n| generation | against | level | Δ score, tasks | Δ score, tasks and draws | win, tasks | win, tasks and draws | verdict (direct) |\n|---|---|---|---|---|---|---|---|");
    for (const g of report.slice(1))
      for (const [against, v] of [["previous", g.vsPrevious!], ["generation 0", g.vsFirst!]] as const) {
        if (against === "generation 0" && g.generation === 1) continue;
        for (const level of ["policy", "search"] as const) {
          const r = v[level];
          console.log(`| ${g.generation} | ${against} | ${level} | ${ci(r.score.tasks)} | ${ci(r.score.withDraws)} | ${ci(r.win.tasks)} | ` +
            `${ci(r.win.withDraws)} | ${describeVerdict(directVerdict(r))} |`);
        }
      }
    // How far each generation moved: mean KL(p_k ‖ p_k+1) over generation k's fresh drafts' decisions on the held-out tasks.
    console.log("\n| step | mean KL (nats per decision) | probes |\n|---|---|---|");
    for (let k = 0; k + 1 < checkpoints.length; k++) {
      const a = (await resolvePolicyParams(checkpoints[k]!, ws)).params;
      const b = (await resolvePolicyParams(checkpoints[k + 1]!, ws)).params;
      const probes = await draftProbes(a, heldoutTasks, { drafts: 4, seed: 1 });
      const kl = policyKl(a, b, probes.probes);
      console.log(`| ${checkpoints[k]} → ${checkpoints[k + 1]} | ${kl.meanKl.toExponential(3)} | ${kl.probes} |`);
    }
    if (res) {
      console.log("\n| generation | teacher | SFT examples | draft % | debug % | improve % | crossover % |\n|---|---|---|---|---|---|---|");
      for (const g of res.generations) {
        const rows = (g.composition ?? []) as CompositionRow[];
        const pct = (op: string) => f(rows.find((r) => r.operator === op)?.sharePct, 1);
        console.log(`| ${g.generation} | ${g.teacher} | ${g.examples} | ${["draft", "debug", "improve", "crossover"].map(pct).join(" | ")} |`);
      }
      console.log(`| paper | GLM-4.7 | 26,259 | ${PAPER.draft} | ${PAPER.debug} | ${PAPER.improve} | ${PAPER.crossover} |`);
    }
    console.log("\n| generation | stage | minutes |\n|---|---|---|");
    for (const s of await loopStages(ws, loopId)) console.log(`| ${s.generation} | ${s.stage} | ${f(s.seconds === null ? null : s.seconds / 60, 1)} |`);
    if (flag("teacher-drafts") && teacher) {
      const st = stageSettings(config);
      const { params, checkpoint } = await resolvePolicyParams(teacher, ws);
      const rows = await heldoutDrafts({ workspace: ws, loopId: `${loopId}-teacher`, generation: 0, checkpoint, policy: createCheckpointPolicy(params, checkpoint),
        tasks: heldoutTasks, drafts: st.heldout.drafts, seed: st.heldout.draftSeed, perRunTimeoutS: st.evolve.perRunTimeoutS ?? 120,
        concurrency: st.evolve.workers ?? 2, baselines, evaluate: (job) => runSandbox({ ...job, workspace: ws, executor }) });
      const t = heldoutReport([checkpoint], rows, [], norm, higher)[0]!;
      console.log(`\nteacher ${checkpoint}, policy level on the same draws: valid ${f(t.policy.validRate, 2)}, score ${ci(t.policy.score)}`);
      for (const g of report.slice(1)) {
        const genRows = await loadHeldoutDrafts(ws, loopId, g.generation);
        const r = pairedReadings(genRows, rows, norm, higher);
        console.log(`generation ${g.generation} − teacher (policy level): Δ ${ci(r.score.tasks)}, drafts resampled ${ci(r.score.withDraws)}; ` +
          `win ${ci(r.win.tasks)}, drafts resampled ${ci(r.win.withDraws)}`);
      }
    }
  } finally {
    await executor.close();
    ws.close();
  }
}

await main();
