// How stable SFT's early stopping is (issue 30, training side only): the same dataset and starting checkpoint, trained
// with the loop's SFT settings under several split seeds, once with one held-out split (folds 1: `heldOut` of the tasks)
// and once with K-fold cross-validated stopping (folds K: every task held out once, kit/erl crossValidatedEpoch). A rule
// whose kept epoch swings with the seed decides how far a generation moves by which tasks it happened to hold out.
// Also the mean KL (kit/erl policyKl) from the start to the result on the dataset's own decisions: how far SFT moved.
// Pure replays: nothing is executed or written.
//   npx tsx bench/erl/stopping.ts --recorded learning-armB60u,learning-armA60u \
//     --cells learn-b6c48064-g1:learn-b6c48064-g1 --seeds 0,1,2,3,4 --folds 1,5 [--outer 5]
import {
  kFolds, loadDataset, LOOP_PRESET_SETTINGS, meanLogLik, policyKl, resolvePolicyParams, trainGrammarSft,
} from "../../kit/erl/index.js";
import type { Workspace } from "../../kit/store/index.js";
import { fromFirst, openSources } from "./rows.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const list = (name: string, d: string) => arg(name, d).split(",").filter(Boolean);
const f = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "–");
const cells = list("cells", "").map((c) => { const [start, dataset] = c.split(":"); return { start: start!, dataset: dataset! }; });
if (!cells.length || cells.some((c) => !c.dataset)) throw new Error("pass --cells START:DATASET[,START:DATASET]");
const seeds = list("seeds", "0,1,2,3,4").map(Number);
const folds = list("folds", "1,5").map(Number);
// The laptop preset's SFT (kit/erl loop-config.ts: 200 epochs at lr 2, split by task), each rule's folds set below.
const preset = LOOP_PRESET_SETTINGS.laptop.sft;
const base = {
  epochs: Number(arg("epochs", String(preset.epochs))), lr: Number(arg("lr", String(preset.lr))), heldOut: preset.heldOut, splitBy: preset.splitBy,
};
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };

// Sources (comma-separated, --recorded NAME of data/recorded-runs/NAME or --workspace DIR): each start checkpoint and
// dataset is read from the first that holds it, so one loop's checkpoint can be trained on another loop's data.
const sources = await openSources(arg("recorded", ""), arg("workspace", "workspaces/bench-learning"));
const first = <T>(read: (w: Workspace) => Promise<T>) => fromFirst(sources, read);
const cellData = async (start: string, dataset: string) => {
  const params = await first(async (w) => (await resolvePolicyParams(start, w)).params);
  const usable = (await first((w) => loadDataset(w, dataset))).filter((e) => e.choices?.length);
  return { params, examples: usable.map((e) => e.choices!), tasks: usable.map((e) => e.taskId) };
};
try {
  console.log(`SFT at ${base.epochs} epochs, lr ${base.lr}, split by task; split seeds ${seeds.join(", ")}\n`);
  console.log("| start | dataset | folds | kept epoch per seed | median | range | KL start → result per seed (nats per decision) |");
  console.log("|---|---|---|---|---|---|---|");
  for (const { start, dataset } of cells) {
    const { params, examples, tasks } = await cellData(start, dataset);
    for (const k of folds) {
      const runs = seeds.map((seed) => trainGrammarSft(params, examples, { ...base, seed, folds: k }, tasks));
      const epochs = runs.map((r) => r.metrics.keptEpoch);
      const kls = runs.map((r) => policyKl(params, r.params, examples.flat()).meanKl);
      console.log(`| ${start} | ${dataset} | ${k === 1 ? "1 (one split)" : k} | ${epochs.join(", ")} | ${median(epochs)} | ` +
        `${Math.min(...epochs)}–${Math.max(...epochs)} | ${kls.map((x) => f(x, 4)).join(", ")} |`);
    }
  }
  if (Number(arg("outer", "0")) > 1) await nested(Number(arg("outer", "0")));
} finally {
  for (const w of sources) w.close();
}

// --outer K: which rule's params generalise better, by nested cross-validation on the training side. The dataset's
// tasks are split into K outer folds (kFolds, seed 0); for each outer fold and split seed, each rule trains on the
// other folds and the outer fold's mean log-likelihood is read (no rule ever sees it). Also "none" (the start) and
// "all epochs" (no early stopping). Reported: the example-weighted mean over the outer folds of the gain over the
// start, mean and spread (min–max) over the split seeds.
async function nested(outer: number): Promise<void> {
  console.log(`\nnested: ${outer} outer folds by task (seed 0); gain in mean log-likelihood per example on the outer ` +
    `fold over the start, mean over split seeds [min, max]\n`);
  const rules = [...folds.map((k) => ({ name: k === 1 ? "one split" : `${k} folds`, cfg: { folds: k } })),
    { name: `all ${base.epochs} epochs`, cfg: { earlyStopping: false, heldOut: 0 } }];
  console.log(`| start | dataset | ${rules.map((r) => r.name).join(" | ")} |\n|---|---|${rules.map(() => "---|").join("")}`);
  for (const { start, dataset } of cells) {
    const { params, examples, tasks } = await cellData(start, dataset);
    const parts = kFolds(examples.length, outer, { seed: 0, by: "task" }, tasks);
    const cellsOut = rules.map((rule) => {
      const gains = seeds.map((seed) => {
        let [sum, n] = [0, 0];
        for (const heldIdx of parts) {
          const held = new Set(heldIdx);
          const trainIdx = examples.map((_, i) => i).filter((i) => !held.has(i));
          const r = trainGrammarSft(params, trainIdx.map((i) => examples[i]!), { ...base, seed, ...rule.cfg },
            trainIdx.map((i) => tasks[i]!));
          const outerSet = heldIdx.map((i) => examples[i]!);
          sum += (meanLogLik(r.params, outerSet) - meanLogLik(params, outerSet)) * outerSet.length;
          n += outerSet.length;
        }
        return sum / n;
      });
      return `${f(gains.reduce((a, b) => a + b, 0) / gains.length)} [${f(Math.min(...gains))}, ${f(Math.max(...gains))}]`;
    });
    console.log(`| ${start} | ${dataset} | ${cellsOut.join(" | ")} |`);
  }
}
