// Step sizes of a loop's SFT and RL, chosen on the training side only (issue 30: "regularised against its previous
// generation ... chosen by measurement"; never on the held-out suite). For every SFT checkpoint of the loop it retrains
// on the same dataset from the same parent over a grid of (lr, epochs) and reports the epoch early stopping keeps and
// the log-likelihood on the SFT data's own held-out split; for every RL run it replays each consumed step's update from
// the params that step started from, over a grid of GSPO learning rates, and reports the mean KL per update on that
// step's own decisions. Pure replays: nothing is executed or written.
//   npx tsx bench/erl/step-size.ts --workspace workspaces/bench-learning-a60 --loop learn-1b3c0d9d
// --conditioned true|false: replay SFT with the feature-conditioned rows on or off instead of each checkpoint's own
// setting (compares the two parametrisations on the training side); --split-by example|task: the early-stopping split
// holds out examples or whole training tasks (kit/erl heldOutSplit); --sft-only skips the RL replay.
import {
  listCheckpoints, loadCheckpoint, loadDataset, gspoUpdate, policyKl, resolvePolicyParams, storedStepBatches,
  trainGrammarSft,
} from "../../kit/erl/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const grid = (name: string, d: string) => arg(name, d).split(",").map(Number);
const f = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
const SFT_LR = grid("sft-lr", "0.5,2,8");
const SFT_EPOCHS = grid("sft-epochs", "20,200");
const RL_LR = grid("rl-lr", "1,2,4,8,16");
const CONDITIONED = arg("conditioned", "");
const SPLIT_BY = arg("split-by", "") as "" | "example" | "task";
const TARGET_KL = Number(arg("target-kl", "1e-2")); // the RL rule: largest lr whose mean KL per update stays under it

const ws = await openWorkspace(arg("workspace", "workspaces/bench-learning-a60"));
try {
  const loopId = arg("loop", "");
  const cks = loopCheckpoints(await listCheckpoints(ws), loopId);
  console.log(`loop ${loopId}: SFT on each generation's dataset from its parent (the checkpoint's own held-out split and seed` +
    `${CONDITIONED ? `; conditioned rows ${CONDITIONED === "true" ? "on" : "off"}` : ""}${SPLIT_BY ? `; split by ${SPLIT_BY}` : ""})\n`);
  console.log("| checkpoint | lr | epochs | kept epoch | held-out examples | held-out LL before | held-out LL after | train LL after |\n|---|---|---|---|---|---|---|---|");
  for (const c of cks.filter((x) => x.source === "sft" && x.dataset && x.parent)) {
    const start = (await resolvePolicyParams(c.parent!, ws)).params;
    const usable = (await loadDataset(ws, c.dataset!)).filter((e) => e.choices?.length);
    const [examples, tasks] = [usable.map((e) => e.choices!), usable.map((e) => e.taskId)];
    const own = (await loadCheckpoint(ws, c.name)).config as { heldOut?: number; seed?: number; conditioned?: boolean; splitBy?: "example" | "task" };
    const { heldOut, seed } = own;
    const splitBy = SPLIT_BY || own.splitBy;
    const conditioned = CONDITIONED ? CONDITIONED === "true" : own.conditioned;
    for (const lr of SFT_LR)
      for (const epochs of SFT_EPOCHS) {
        const { metrics: m } = trainGrammarSft(start, examples, { lr, epochs, heldOut, seed, conditioned, splitBy }, tasks);
        console.log(`| ${c.name} | ${lr} | ${epochs} | ${m.keptEpoch} | ${m.heldOutExamples} | ${f(m.heldOutLogLikBefore)} | ${f(m.heldOutLogLikAfter)} | ${f(m.trainLogLikAfter)} |`);
      }
  }
  if (!process.argv.includes("--sft-only")) await replayRl(cks);
} finally {
  ws.close();
}

/** The loop's own checkpoints (`<loop>-g<k>…`): never an oracle's or another script's that shares the prefix. */
function loopCheckpoints<C extends { name: string }>(all: C[], loopId: string): C[] {
  return all.filter((c) => c.name.startsWith(`${loopId}-g`) && /^\d/.test(c.name.slice(loopId.length + 2)));
}

async function replayRl(cks: Awaited<ReturnType<typeof listCheckpoints>>) {
  console.log("\nRL: each consumed step's GSPO update replayed from the params it started from (epochs 1), mean KL per decision on the step's own rollouts\n");
  console.log("| RL run | steps | GSPO lr | mean KL per update | max KL per update |\n|---|---|---|---|---|");
  const byName = new Map(cks.map((c) => [c.name, c]));
  const meanKl = new Map<number, number[]>(); // lr → each run's mean KL per update
  for (const run of [...new Set(cks.filter((x) => x.source === "rl" && x.dataset).map((x) => x.dataset!))].sort()) {
    const batches = await storedStepBatches(ws, run);
    if (!batches.length) continue;
    const starts = batches.map((b, i) => (i === 0 ? byName.get(b.checkpoint)?.parent ?? null : batches[i - 1]!.checkpoint));
    const params = await Promise.all(starts.map(async (s) => (s ? (await resolvePolicyParams(s, ws)).params : null)));
    for (const lr of RL_LR) {
      const kls = batches.flatMap((b, i) => {
        if (!params[i]) return [];
        const after = gspoUpdate(params[i]!, b.samples, { lr, epochs: 1 }).params;
        return [policyKl(params[i]!, after, b.samples.flatMap((s) => s.choices)).meanKl];
      });
      const mean = kls.length ? kls.reduce((a, b) => a + b, 0) / kls.length : null;
      if (mean !== null) meanKl.set(lr, [...(meanKl.get(lr) ?? []), mean]);
      console.log(`| ${run} | ${kls.length} | ${lr} | ${mean === null ? "–" : mean.toExponential(2)} | ${kls.length ? Math.max(...kls).toExponential(2) : "–"} |`);
    }
  }
  const ok = RL_LR.filter((lr) => (meanKl.get(lr) ?? []).length > 0 && meanKl.get(lr)!.every((k) => k <= TARGET_KL));
  console.log(`\nRL rule: the largest GSPO lr whose mean KL per update is ≤ ${TARGET_KL} in every run: ${ok.length ? Math.max(...ok) : "none on this grid"}`);
}
