// Paired held-out comparisons between any two stored row sets of the policy level (issue 30): generation g of rows A
// against generation h of rows B, draw for draw where both used the same draw seeds (every loop, reeval.ts --drafts N
// and ceiling.ts measure at the loop's draftSeed), e.g. a new loop's generation 1 against an earlier loop's, on the
// same held-out tasks. Each comparison's interval twice, as noise.ts: tasks resampled, and tasks and draws resampled;
// on the mean normalised score (tasks with a normalised score) and on the paired win rate (all tasks). Reads stored
// rows; runs nothing. The task sets and baselines are `--loop`'s.
//   npx tsx bench/erl/versus.ts --workspace workspaces/bench-learning-a60 --loop learn-b58c3093 \
//     --pair learn-NEW-d32:1,learn-b58c3093-d32:1 --pair learn-NEW-d32:1,learn-b58c3093-d32-teacher:0
import {
  loadHeldoutDrafts, loopBaselines, loopTaskSets, normalisableTasks, pairedGenerations, pairedWinRate, pairedWithDraws,
  taskFigures, winRateWithDraws,
} from "../../kit/erl/index.js";
import type { PairedInterval } from "../../kit/eval/index.js";
import { metricDirections, storedTaskPackages } from "../../kit/gym/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const pairs = process.argv.flatMap((a, i) => (a === "--pair" ? [process.argv[i + 1]!] : []));
const loopId = arg("loop", "");
if (!loopId || !pairs.length) throw new Error("pass --loop ID and at least one --pair ROWS_A:GEN,ROWS_B:GEN");
const f = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}]` : "–");
const side = (s: string) => {
  const m = /^(.+):(\d+)$/.exec(s);
  if (!m) throw new Error(`"${s}" is not ROWS:GEN`);
  return { rows: m[1]!, generation: Number(m[2]) };
};
const ws = await openWorkspace(arg("workspace", "workspaces/bench-learning"), { readOnly: true });
try {
  const sets = await loopTaskSets(ws, loopId);
  if (!sets) throw new Error(`no loop ${loopId} in ${ws.dir}`);
  const higher = metricDirections(await storedTaskPackages(ws, sets.heldout));
  const norm = normalisableTasks(await loopBaselines(ws, loopId), higher);
  const load = async (s: { rows: string; generation: number }) => {
    const rows = (await loadHeldoutDrafts(ws, s.rows)).filter((r) => r.generation === s.generation);
    if (!rows.length) throw new Error(`no policy-level rows ${s.rows} generation ${s.generation} in ${ws.dir}`);
    return rows;
  };
  console.log(`held-out tasks of loop ${loopId}: ${sets.heldout.length}, ${norm.size} with a normalised score\n`);
  console.log("| A − B | drafts | Δ score, tasks resampled | Δ score, tasks and draws | win, tasks resampled | win, tasks and draws |");
  console.log("|---|---|---|---|---|---|");
  for (const p of pairs) {
    const [sa, sb] = p.split(",").map(side) as [ReturnType<typeof side>, ReturnType<typeof side>];
    const [a, b] = [await load(sa), await load(sb)];
    const n = Math.round(a.length / new Set(a.map((r) => r.taskId)).size);
    console.log(`| ${sa.rows}:${sa.generation} − ${sb.rows}:${sb.generation} | ${n} | ${ci(pairedGenerations(taskFigures(a, norm), taskFigures(b, norm)))} | ` +
      `${ci(pairedWithDraws(a, b, norm))} | ${ci(pairedWinRate(a, b, higher))} | ${ci(winRateWithDraws(a, b, higher))} |`);
  }
} finally {
  ws.close();
}
