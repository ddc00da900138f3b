// Paired held-out comparisons between any two stored row sets of the policy level (issue 30): generation g of rows A
// against generation h of rows B, draw for draw where both used the same draw seeds (every loop, reeval.ts --drafts N
// and ceiling.ts measure at the loop's draftSeed), e.g. a new loop's generation 1 against an earlier loop's, on the
// same held-out tasks. Each comparison's interval twice, as noise.ts: tasks resampled, and tasks and draws resampled;
// on the mean normalised score (tasks with a normalised score) and on the paired win rate (all tasks). Reads stored
// rows (of a workspace, or with --recorded NAME of data/recorded-runs/NAME; either may list several, comma-separated);
// runs nothing. The baselines are `--loop`'s, overlaid by those stored under each `--baselines ID[,ID]` (rows
// measured on tasks the loop lacks: reeval.ts --heldout-count); the tasks are the rows' own, or with --task-range A:B
// the A-th to (B−1)-th of each row set's tasks by id (e.g. 20:40, the tasks a 40-task re-measure added). With --search
// the rows are the search level's (reeval.ts --search-level): each seed's champion, the seeds resampled as draws
// (--seeds 1,2: only those seeds' runs). Then each pair's verdict by the strict rule on the direct estimator (kit/erl
// strictVerdict). --round N compares graded scores rounded to N significant digits (rows graded on two machines).
//   npx tsx bench/erl/versus.ts --workspace workspaces/bench-learning-a60 --loop learn-b58c3093 \
//     --pair learn-NEW-d32:1,learn-b58c3093-d32:1 --pair learn-NEW-d32:1,learn-b58c3093-d32-teacher:0
import {
  directVerdict, normalisableTasks, pairedReadings, type StrictVerdict, type HeldoutDraftRow, type HeldoutRow,
} from "../../kit/erl/index.js";
import type { PairedInterval } from "../../kit/eval/index.js";
import { metricDirections, storedTaskPackages } from "../../kit/gym/index.js";
import { fromFirst, loadSide, openSources, roundScores, rowBaselines, verdictTable } from "./rows.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const pairs = process.argv.flatMap((a, i) => (a === "--pair" ? [process.argv[i + 1]!] : []));
const loopId = arg("loop", "");
if (!loopId || !pairs.length) throw new Error("pass --loop ID and at least one --pair ROWS_A:GEN,ROWS_B:GEN");
const f = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}]` : "–");
// Several sources (comma-separated): each ROWS:GEN is read from the first that holds it; tasks and baselines from the
// first (e.g. --recorded learning-armB60u,learning-armA60u to pair two loops measured at the same draw seeds).
const sources = await openSources(arg("recorded", ""), arg("workspace", "workspaces/bench-learning"));
const ws = sources[0]!;
const loadAny = (spec: string, range: string, level: "policy" | "search") => fromFirst(sources, (w) => loadSide(w, spec, range, level));
try {
  const range = arg("task-range", "");
  const level = process.argv.includes("--search") ? "search" : "policy";
  const sides = new Map<string, (HeldoutDraftRow | HeldoutRow)[]>();
  const seeds = arg("seeds", "").split(",").filter(Boolean).map(Number);
  // Drafts carry no seed: the policy level's draws are its drafts, all of which a comparison pairs.
  if (seeds.length && level !== "search") throw new Error("--seeds picks search-level seeds: pass it with --search");
  const round = Number(arg("round", "0"));
  const kept = (rows: (HeldoutDraftRow | HeldoutRow)[]) =>
    roundScores(seeds.length ? rows.filter((r) => "seed" in r && seeds.includes(r.seed)) : rows, round);
  for (const spec of pairs.flatMap((p) => p.split(","))) if (!sides.has(spec)) sides.set(spec, kept(await loadAny(spec, range, level)));
  const taskIds = [...new Set([...sides.values()].flat().map((r) => r.taskId))].sort();
  const higher = metricDirections(await storedTaskPackages(ws, taskIds));
  const norm = normalisableTasks(await rowBaselines(ws, loopId, arg("baselines", "").split(",").filter(Boolean), taskIds), higher);
  console.log(`held-out tasks: ${taskIds.length}${range ? ` (range ${range} of each row set)` : ""}, ` +
    `${taskIds.filter((t) => norm.has(t)).length} with a normalised score\n`);
  const draws = level === "search" ? "seeds" : "drafts";
  console.log(`${level} level${round > 0 ? `, graded scores rounded to ${round} significant digits` : ""}\n`);
  console.log(`| A − B | tasks | ${draws} | Δ score, tasks resampled | Δ score, tasks and ${draws} | win, tasks resampled | win, tasks and ${draws} |`);
  console.log("|---|---|---|---|---|---|---|");
  const verdicts: [string, StrictVerdict][] = [];
  for (const p of pairs) {
    const [sa, sb] = p.split(",") as [string, string];
    const [a, b] = [sides.get(sa)!, sides.get(sb)!];
    const tasks = new Set(a.map((r) => r.taskId));
    if (new Set(b.map((r) => r.taskId)).size !== tasks.size || b.some((r) => !tasks.has(r.taskId)))
      throw new Error(`${sa} and ${sb} hold different tasks: compare row sets measured on the same held-out tasks`);
    const drawKeys = (rows: (HeldoutDraftRow | HeldoutRow)[]) => rows.map((r) => `${r.taskId}:${"draft" in r ? r.draft : r.seed}`).sort().join();
    if (drawKeys(a) !== drawKeys(b))
      throw new Error(`${sa} and ${sb} hold different draws (drafts or seeds) on some task: pass --seeds with the seeds both searched`);
    const n = Math.round(a.length / tasks.size);
    const r = pairedReadings(a, b, norm, higher);
    console.log(`| ${sa} − ${sb} | ${tasks.size} | ${n} | ${ci(r.score.tasks)} | ${ci(r.score.withDraws)} | ${ci(r.win.tasks)} | ${ci(r.win.withDraws)} |`);
    verdicts.push([`${sa} − ${sb}`, directVerdict(r)]);
  }
  // kit/erl strictVerdict on the direct estimator alone; at the policy level the rule also reads offpolicy.ts' pooled one.
  console.log(`\n${verdictTable("verdict, direct (both intervals)", verdicts)}`);
} finally {
  for (const src of sources) src.close();
}
