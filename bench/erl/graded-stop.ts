// Does SFT's stopping rule, chosen by log-likelihood, also pick what is graded? (issue 30, the eleventh run's reading;
// training side only: nothing here reads the held-out suite). Nested by task like stopping.ts --outer: the dataset's
// examples are split into K outer folds by task (kFolds, seed 0). For each outer fold given, each rule trains the start
// checkpoint on the other folds' examples with the laptop preset's SFT; then N fresh drafts per task of the outer fold
// (the loop's draw seeds) are executed and graded. The rules are compared by paired win rate on the same tasks and
// draws (kit/erl pairedWinRate: tasks resampled; winRateWithDraws: tasks and draws). Rows are stored under loop id
// `<loop>-gstop-<dataset>`, generation = the rule's position in --rules; folds already stored are read back.
// Rules: `5folds` (the preset: 5-fold cross-validated stopping), `split` (one 20 % split by task, the rule before
// 2026-12-06), `all` (every epoch, no stopping; what arm A's one split happened to keep for its generation 2).
//   npx tsx bench/erl/graded-stop.ts --workspace W --loop learn-00aa07fb --start learn-00aa07fb-g1 \
//     --dataset learn-00aa07fb-g1 --outer 5 --run 0,1 --drafts 8 --rules 5folds,all
import {
  heldoutDrafts, kFolds, loadDataset, loadHeldoutDrafts, loopConfig, LOOP_PRESET_SETTINGS, pairedWinRate, policyKl,
  resolvePolicyParams, stageSettings, trainGrammarSft, winRateWithDraws,
} from "../../kit/erl/index.js";
import type { PairedInterval } from "../../kit/eval/index.js";
import { metricDirections, resolveTask } from "../../kit/gym/index.js";
import { createCheckpointPolicy } from "../../kit/policy/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const list = (name: string, d: string) => arg(name, d).split(",").filter(Boolean);
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}]` : "–");
const preset = LOOP_PRESET_SETTINGS.laptop.sft;
const RULES = {
  "5folds": { ...preset, folds: 5, seed: 0 },
  split: { ...preset, folds: 1, seed: 0 },
  all: { ...preset, folds: 1, earlyStopping: false, heldOut: 0 },
} as const;
const [loopId, start, dataset] = [arg("loop", ""), arg("start", ""), arg("dataset", "")];
if (!loopId || !start || !dataset) throw new Error("pass --loop ID, --start CHECKPOINT and --dataset NAME");
const rules = list("rules", "5folds,all") as (keyof typeof RULES)[];
for (const r of rules) if (!(r in RULES)) throw new Error(`unknown rule "${r}": pass --rules from ${Object.keys(RULES).join(", ")}`);
const [outer, drafts] = [Number(arg("outer", "5")), Number(arg("drafts", "8"))];
const rowsId = `${loopId}-gstop-${dataset}`;
const ws = await openWorkspace(arg("workspace", ""));
const executor = new WarmExecutor();
try {
  const cfg = await loopConfig(ws, loopId);
  if (!cfg) throw new Error(`no loop "${loopId}" in ${ws.dir}`);
  const st = stageSettings(cfg);
  const { params } = await resolvePolicyParams(start, ws);
  const usable = (await loadDataset(ws, dataset)).filter((e) => e.choices?.length);
  const [examples, groups] = [usable.map((e) => e.choices!), usable.map((e) => e.taskId)];
  const parts = kFolds(examples.length, outer, { seed: 0, by: "task" }, groups);
  const stored = await loadHeldoutDrafts(ws, rowsId);
  console.log(`start ${start}, dataset ${dataset} (${examples.length} examples, ${new Set(groups).size} tasks), ` +
    `${outer} outer folds by task; ${drafts} drafts per task of each outer fold\n`);
  console.log("| outer fold | tasks | rule | kept epoch | KL start → result | valid |\n|---|---|---|---|---|---|");
  const heldTasks: string[] = [];
  for (const k of list("run", "0").map(Number)) {
    const held = new Set(parts[k]!);
    const trainIdx = examples.map((_, i) => i).filter((i) => !held.has(i));
    const taskIds = [...new Set(parts[k]!.map((i) => groups[i]!))].sort();
    heldTasks.push(...taskIds);
    const tasks = await Promise.all(taskIds.map((t) => resolveTask(t)));
    for (const [g, rule] of rules.entries()) {
      const r = trainGrammarSft(params, trainIdx.map((i) => examples[i]!), RULES[rule], trainIdx.map((i) => groups[i]!));
      const label = `${dataset}:${rule}:fold${k}`;
      const have = stored.filter((x) => x.generation === g + 1 && taskIds.includes(x.taskId));
      const rows = have.length === taskIds.length * drafts ? have : await heldoutDrafts({
        workspace: ws, loopId: rowsId, generation: g + 1, checkpoint: label, policy: createCheckpointPolicy(r.params, label),
        tasks, drafts, seed: st.heldout.draftSeed, perRunTimeoutS: st.evolve.perRunTimeoutS ?? 120,
        memoryMb: st.evolve.memoryMb, concurrency: st.evolve.workers ?? 1, baselines: {},
        evaluate: (job) => runSandbox({ ...job, workspace: ws, executor }),
        onTask: (t, _rows, done, of) => console.error(`${label}: ${t} (${done}/${of})`),
      });
      const kl = policyKl(params, r.params, trainIdx.map((i) => examples[i]!).flat()).meanKl;
      const valid = rows.filter((x) => x.testScore !== null).length / Math.max(1, rows.length);
      console.log(`| ${k} | ${taskIds.length} | ${rule} | ${r.metrics.keptEpoch} | ${f(kl, 4)} | ${f(valid, 2)} |`);
    }
  }
  const all = (await loadHeldoutDrafts(ws, rowsId)).filter((x) => heldTasks.includes(x.taskId));
  const higher = metricDirections(await Promise.all(heldTasks.map((t) => resolveTask(t))));
  const of = (g: number) => all.filter((x) => x.generation === g);
  console.log(`\n| A − B (${heldTasks.length} tasks) | win, tasks resampled | win, tasks and draws |\n|---|---|---|`);
  for (let a = 1; a < rules.length; a++)
    for (let b = 0; b < a; b++)
      console.log(`| ${rules[a]} − ${rules[b]} | ${ci(pairedWinRate(of(a + 1), of(b + 1), higher))} | ` +
        `${ci(winRateWithDraws(of(a + 1), of(b + 1), higher))} |`);
} finally {
  await executor.close();
  ws.close();
}
