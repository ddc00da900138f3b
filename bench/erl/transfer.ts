// What transfers: SFT the grammar policy on the best drafts of some built-in tasks, then measure on a
// held-out task how much more likely its best drafts became (Δ log-likelihood per program vs the
// default params), with and without the feature-conditioned rows (params version 2).
// Data: the executed drafts of bench/policy/results.jsonl (10 seeds per task, default params), regenerated
// from their seeds (the draft grammar is deterministic given the Rng) and checked against the recorded
// method family. No sandbox runs.
//   npx tsx bench/erl/transfer.ts [--keep 3] [--epochs 20] [--lr 0.05] [--results bench/policy/results.jsonl]
import { readFileSync } from "node:fs";
import { resolveTask } from "../../kit/gym/index.js";
import { choiceLogProb, createGrammarPolicy, defaultGrammarParams, gradientStep, methodFamily, type GrammarChoice, type GrammarParams } from "../../kit/policy/grammar/index.js";
import { createRng } from "../../kit/util/rng.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const keep = Number(arg("keep", "3"));
const epochs = Number(arg("epochs", "20"));
const lr = Number(arg("lr", "0.05"));
const results = arg("results", "bench/policy/results.jsonl");

interface Row { task: string; operator: string; seed: number; status: string; validScore: number | null; family: string }
interface Draft { task: string; modality: string; choices: GrammarChoice[]; kept: boolean }

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const lp = (p: GrammarParams, d: Draft) => d.choices.reduce((s, c) => s + choiceLogProb(p, c), 0);

function sft(drafts: readonly Draft[], conditioned: boolean): GrammarParams {
  let p = defaultGrammarParams();
  const kept = drafts.filter((d) => d.kept);
  for (let e = 0; e < epochs; e++) p = gradientStep(p, kept.map((d) => ({ choices: d.choices, weight: 1 / kept.length })), lr * kept.length, { conditioned });
  return p;
}

async function main() {
  const rows = readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row).filter((r) => r.operator === "draft");
  const last = new Map<string, Row>();
  for (const r of rows) last.set(`${r.task}|${r.seed}`, r);
  const byTask = new Map<string, Row[]>();
  for (const r of last.values()) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  const drafts: Draft[] = [];
  let mismatched = 0;
  const policy = createGrammarPolicy(defaultGrammarParams());
  for (const [id, rs] of byTask) {
    const task = await resolveTask(id);
    const sign = task.meta.higherIsBetter ? 1 : -1;
    const ok = rs.filter((r) => r.status === "success" && r.validScore !== null).sort((a, b) => sign * (b.validScore! - a.validScore!));
    const top = new Set(ok.slice(0, keep).map((r) => r.seed));
    for (const r of rs) {
      const o = await policy.propose(task, "draft", { parents: [], budget: { remainingSteps: 10, remainingTimeS: 3600, perRunTimeLimitS: 120 } }, createRng(r.seed));
      if (methodFamily(o.spec) !== r.family) { mismatched++; continue; }
      drafts.push({ task: id, modality: task.meta.modality, choices: [...o.choices], kept: top.has(r.seed) });
    }
  }
  const base = defaultGrammarParams();
  const lines = ["| held-out | modality | train tasks | Δ log p kept (base rows) | Δ log p kept (conditioned) | margin kept−rest (base) | margin (conditioned) |", "|---|---|---|---|---|---|---|"];
  const summary: Record<string, number[]> = { db: [], dc: [], mb: [], mc: [] };
  const evalOn = (label: string, mod: string, train: Draft[], test: Draft[]) => {
    const pb = sft(train, false);
    const pc = sft(train, true);
    const kept = test.filter((d) => d.kept);
    const rest = test.filter((d) => !d.kept);
    const delta = (p: GrammarParams, ds: Draft[]) => mean(ds.map((d) => lp(p, d) - lp(base, d)));
    const [db, dc] = [delta(pb, kept), delta(pc, kept)];
    const [mb, mc] = [db - delta(pb, rest), dc - delta(pc, rest)];
    summary.db!.push(db); summary.dc!.push(dc); summary.mb!.push(mb); summary.mc!.push(mc);
    lines.push(`| ${label} | ${mod} | ${new Set(train.map((d) => d.task)).size} | ${db.toFixed(2)} | ${dc.toFixed(2)} | ${mb.toFixed(2)} | ${mc.toFixed(2)} |`);
  };
  const tasks = [...byTask.keys()];
  for (const t of tasks) evalOn(t, drafts.find((d) => d.task === t)!.modality, drafts.filter((d) => d.task !== t), drafts.filter((d) => d.task === t));
  const within = [...lines];
  const s1 = Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, mean(v)]));
  for (const k of Object.keys(summary)) summary[k] = [];
  lines.length = 2;
  for (const mod of [...new Set(drafts.map((d) => d.modality))]) evalOn(`all ${mod}`, mod, drafts.filter((d) => d.modality !== mod), drafts.filter((d) => d.modality === mod));
  const s2 = Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, mean(v)]));
  console.log(`drafts: ${drafts.length} (${mismatched} dropped: regenerated family ≠ recorded); keep top ${keep} per task; SFT ${epochs} epochs, lr ${lr}\n`);
  console.log("Leave one task out:\n");
  console.log(within.join("\n"));
  console.log(`| **mean** | | | ${s1.db!.toFixed(2)} | ${s1.dc!.toFixed(2)} | ${s1.mb!.toFixed(2)} | ${s1.mc!.toFixed(2)} |\n`);
  console.log("Leave one modality out:\n");
  console.log(lines.join("\n"));
  console.log(`| **mean** | | | ${s2.db!.toFixed(2)} | ${s2.dc!.toFixed(2)} | ${s2.mb!.toFixed(2)} | ${s2.mc!.toFixed(2)} |`);
}

await main();
