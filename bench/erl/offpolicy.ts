// Off-policy estimates of the policy-level held-out measure (issue 30, "noise of the held-out measure"): every stored
// draft of a pool of checkpoints on a held-out task, replayed (not executed) to get its probability under each
// checkpoint, estimates every checkpoint's figure by multiple importance sampling (kit/eval's mixtureWeights; kit/erl's
// offPolicyFigures/offPolicyPaired). Prints, from stored rows only:
//   1. a replay check: drafts of different checkpoints that replay to the same spec must have the same stored grade;
//   2. per checkpoint, its direct figure (its own drafts) beside the pool's estimate and the estimate from the pool
//      without its own drafts (leave-one-out: does the pool predict a checkpoint it did not draw from?);
//   3. the paired comparisons, direct and off-policy, each with tasks resampled and with tasks and draws resampled,
//      and each pair's verdict by the strict rule (kit/erl strictVerdict: both estimators, both intervals);
//   npx tsx bench/erl/offpolicy.ts --recorded learning-armA60s --loop learn-b58c3093 \
//     --pool learn-b58c3093-d32:0,learn-b58c3093-d32-teacher:0,learn-b58c3093-d32:1,learn-b58c3093-d32:2
// (--workspace DIR instead of --recorded NAME reads a workspace; --pair A,B by checkpoint name, default every later
// pool member against every earlier one; --baselines ID[,ID] and --task-range A:B as in versus.ts: rows measured on
// more tasks than the loop's, reeval.ts --heldout-count; --round N as in versus.ts: graded scores rounded to N
// significant digits, for rows graded on two machines.)
import {
  heldoutPool, offPolicyDiffs, winProbability, normalisableTasks, offPolicyFigures, offPolicyPaired,
  pairedGenerations, pairedReadings, strictVerdict, taskFigures, type HeldoutDraftRow, type PoolDraft, type HeldoutMeasure, type StrictVerdict, type TwoIntervals,
} from "../../kit/erl/index.js";
import { pairedBootstrap, type PairedInterval } from "../../kit/eval/index.js";
import { metricDirections } from "../../kit/gym/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { loadSide, relativeGap, roundScores, rowBaselines, side, verdictTable } from "./rows.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const pairsArg = process.argv.flatMap((a, i) => (a === "--pair" ? [process.argv[i + 1]!] : []));
const loopId = arg("loop", "");
const poolSpec = arg("pool", "").split(",").filter(Boolean);
if (!loopId || poolSpec.length < 2) throw new Error("pass --loop ID and --pool ROWS:GEN,ROWS:GEN[,...] (two or more)");
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}]` : "–");
const width = (x: PairedInterval | null) => (x ? x.hi - x.lo : NaN);
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const t0 = Date.now();

const ws = arg("recorded", "") ? await openRecordedRuns(arg("recorded", "")) : await openWorkspace(arg("workspace", "workspaces/bench-learning"), { readOnly: true });
try {
  // The pool: each ROWS:GEN's drafts under the checkpoint they name, on the same tasks, replayed (kit/erl heldoutPool).
  const range = arg("task-range", "");
  const only = range ? [...new Set((await loadSide(ws, poolSpec[0]!, range)).map((r) => r.taskId))] : undefined;
  const round = Number(arg("round", "0"));
  const stored = await heldoutPool(ws, { loopId, sides: poolSpec.map(side), tasks: only });
  const { labels, tasks } = stored;
  const pool = roundScores(stored.drafts, round);
  const rowsOf = new Map([...stored.rowsOf].map(([k, rs]) => [k, roundScores(rs, round)]));
  const taskIds = tasks.map((t) => t.meta.id);
  const higher = metricDirections(tasks);
  const norm = normalisableTasks(await rowBaselines(ws, loopId, arg("baselines", "").split(",").filter(Boolean), taskIds), higher);
  const all = [...rowsOf.values()].flat();
  const drafts = Math.round(all.length / labels.length / tasks.length);
  console.log(`loop ${loopId}: ${tasks.length} held-out tasks (${taskIds.filter((t) => norm.has(t)).length} with a normalised score); pool of ${labels.length} ` +
    `checkpoints × ${drafts} drafts: ${labels.join(", ")}; replayed in ${((Date.now() - t0) / 1000).toFixed(0)} s` +
    `${round > 0 ? `; graded scores rounded to ${round} significant digits` : ""}\n`);

  // 1. Replay check: same spec ⇒ same stored grade (the sandbox is deterministic and idempotent; rows measured on
  // another machine, e.g. imported from a recorded run, differ in the last digits: up to 1e-6 relative is the same).
  const bySpec = new Map<string, PoolDraft[]>();
  for (const p of pool) bySpec.set(`${p.taskId}|${p.specHash}`, [...(bySpec.get(`${p.taskId}|${p.specHash}`) ?? []), p]);
  const shared = [...bySpec.values()].filter((ps) => new Set(ps.map((p) => p.drawnBy)).size > 1);
  const gaps = shared.map((ps) => Math.max(...ps.map((p) => relativeGap(p.testScore, ps[0]!.testScore))));
  const mismatched = gaps.filter((g) => g > 1e-6).length;
  console.log(`replay check: ${pool.length} drafts, ${bySpec.size} distinct programs; ${shared.length} programs drawn by more ` +
    `than one checkpoint, ${mismatched} of them with differing stored grades (relative difference over 1e-6; largest ` +
    `of the rest ${Math.max(0, ...gaps.filter((g) => g <= 1e-6)).toExponential(1)})\n`);

  // 2. Per checkpoint: direct, pooled, leave-one-out.
  const scoreOf = (figs: readonly { score: number | null }[]) => mean(figs.flatMap((x) => (x.score === null ? [] : [x.score])));
  console.log("| checkpoint | direct score | pooled estimate | mean ESS of N | leave-one-out estimate | LOO − direct, tasks | mean LOO ESS |");
  console.log("|---|---|---|---|---|---|---|");
  for (const label of labels) {
    const direct = taskFigures(rowsOf.get(label)!, norm);
    const pooled = offPolicyFigures(pool, labels, label, norm);
    const others = labels.filter((l) => l !== label);
    const loo = offPolicyFigures(pool, others, label, norm);
    const d = pairedGenerations(loo, direct);
    console.log(`| ${label} | ${f(scoreOf(direct))} | ${f(scoreOf(pooled))} | ${f(mean(pooled.map((x) => x.ess)), 1)} of ${pooled[0]?.n ?? 0} | ` +
      `${f(scoreOf(loo))} | ${ci(d)} | ${f(mean(loo.map((x) => x.ess)), 1)} of ${loo[0]?.n ?? 0} |`);
  }

  // 3. Paired comparisons.
  const pairs = pairsArg.length ? pairsArg.map((p) => p.split(",") as [string, string])
    : labels.flatMap((b, i) => labels.slice(i + 1).map((a) => [a, b] as [string, string]));
  console.log("\n| A − B | measure | direct, tasks | direct, tasks and draws | pooled, tasks | pooled, tasks and draws | width pooled / direct (two-stage) |");
  console.log("|---|---|---|---|---|---|---|");
  const ratios: number[] = [];
  const verdicts: [string, StrictVerdict][] = [];
  for (const [a, b] of pairs) {
    const [ra, rb] = [rowsOf.get(a), rowsOf.get(b)];
    if (!ra || !rb) throw new Error(`pair ${a},${b}: both must be pool checkpoints (${labels.join(", ")})`);
    const direct = pairedReadings(ra, rb, norm, higher);
    const both: Partial<Record<HeldoutMeasure, TwoIntervals[]>> = {};
    for (const measure of ["score", "win"] as const) {
      const d = direct[measure];
      const pooled = offPolicyPaired(pool, labels, a, b, { measure, normalisable: norm, higherIsBetter: higher });
      both[measure] = [d, pooled];
      const r = width(pooled.withDraws) / width(d.withDraws);
      ratios.push(r);
      console.log(`| ${a} − ${b} | ${measure} | ${ci(d.tasks)} | ${ci(d.withDraws)} | ${ci(pooled.tasks)} | ${ci(pooled.withDraws)} | ${f(r, 2)} |`);
    }
    verdicts.push([`${a} − ${b}`, strictVerdict(both)]);
  }
  console.log(`\nmedian width ratio (pooled / direct, tasks and draws resampled): ${f([...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)]!, 2)}`);
  // The strict rule (kit/erl strictVerdict): a measure decides where both estimators exclude 0 with both intervals.
  console.log(`\n${verdictTable("strict verdict (direct and pooled)", verdicts)}`);

  // 4. Split half: which estimator, computed from the first half of the draws, better predicts the direct figure of
  // the other half (independent draws), and vice versa? The target's own noise is the same for both estimators, so
  // the difference of their mean squared errors is the difference of their errors.
  const half = Math.floor(drafts / 2);
  const sides = [(d: number) => d < half, (d: number) => d >= half];
  const directDiffs = (rs: readonly HeldoutDraftRow[], a: string, b: string, measure: "score" | "win") => {
    const [ra, rb] = [rs.filter((r) => r.checkpoint === a), rs.filter((r) => r.checkpoint === b)];
    if (measure === "score") {
      const fb = new Map(taskFigures(rb, norm).map((x) => [x.taskId, x.score]));
      return new Map(taskFigures(ra, norm).flatMap((x) => (x.score === null ? [] : [[x.taskId, x.score - fb.get(x.taskId)!] as [string, number]])));
    }
    return new Map(taskIds.map((t) => [t, winProbability(ra.filter((r) => r.taskId === t).map((r) => r.testScore),
      rb.filter((r) => r.taskId === t).map((r) => r.testScore), higher(t))! - 0.5]));
  };
  console.log(`\nsplit half (draws 0–${half - 1} against ${half}–${drafts - 1}, both ways): mean squared error in predicting the other half's direct per-task difference`);
  console.log("| A − B | measure | direct | pooled | pooled − direct |");
  console.log("|---|---|---|---|---|");
  for (const [a, b] of pairs)
    for (const measure of ["score", "win"] as const) {
      const err = { direct: [] as number[], pooled: [] as number[] };
      for (const [k, side] of sides.entries()) {
        const other = sides[1 - k]!;
        const target = directDiffs(all.filter((r) => other(r.draft)), a, b, measure);
        const direct = directDiffs(all.filter((r) => side(r.draft)), a, b, measure);
        const pooled = new Map(offPolicyDiffs(pool.filter((p) => side(p.draft)), labels, a, b, { measure, normalisable: norm, higherIsBetter: higher }).map((d) => [d.taskId, d.diff]));
        for (const [t, y] of target) {
          err.direct.push((direct.get(t)! - y) ** 2);
          err.pooled.push((pooled.get(t)! - y) ** 2);
        }
      }
      const dd = err.pooled.map((x, i) => x - err.direct[i]!);
      console.log(`| ${a} − ${b} | ${measure} | ${f(mean(err.direct), 4)} | ${f(mean(err.pooled), 4)} | ${ci(pairedBootstrap(dd))} |`);
    }
  console.log(`\n${((Date.now() - t0) / 60000).toFixed(1)} min`);
} finally {
  ws.close();
}
