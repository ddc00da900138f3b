// Where the width of a loop's held-out intervals comes from (issue 30): for every generation against the one before,
// against generation 0 and against the teacher's drafts (`<loop>-teacher`, when measured), the paired difference's
// variance split into draw noise (W: more draws shrink it) and task heterogeneity (H: only more tasks do), with the
// draws or tasks an effect of the measured size would need (kit/erl noiseSplit), and each comparison's interval twice:
// resampling tasks only (the loop report's) and resampling tasks and their draws (twoStageGenerations, twoStageWinRate).
// Reads stored rows; runs nothing.
//   npx tsx bench/erl/noise.ts --workspace workspaces/bench-learning-a60 --loop learn-b58c3093 [--rows ID] [--teacher-loop ID]
// --rows: read the held-out rows of another id (reeval.ts --drafts N stores them as `<loop>-<tag>`); the task sets and
// baselines stay the loop's.
import {
  drawnCredits, loadHeldout, loadHeldoutDrafts, loopBaselines, loopTaskSets, noiseSplit, normalisableTasks,
  pairedGenerations, pairedWinRate, pairedWithDraws, projectedHalfWidth, taskFigures, winRateWithDraws,
  type HeldoutDraftRow, type HeldoutRow,
} from "../../kit/erl/index.js";
import type { PairedInterval } from "../../kit/eval/index.js";
import { metricDirections, storedTaskPackages } from "../../kit/gym/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const loopId = arg("loop", "");
if (!loopId) throw new Error("pass --loop ID (list them: npx openmle workspace query DIR \"SELECT loop_id FROM loops\")");
const ws = await openWorkspace(arg("workspace", "workspaces/bench-learning"), { readOnly: true });
const f = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
try {
  const sets = await loopTaskSets(ws, loopId);
  if (!sets) throw new Error(`no loop ${loopId} in ${ws.dir}`);
  const higher = metricDirections(await storedTaskPackages(ws, sets.heldout));
  const norm = normalisableTasks(await loopBaselines(ws, loopId), higher);
  type Row = HeldoutDraftRow | HeldoutRow;
  const rowsId = arg("rows", loopId);
  const drafts = await loadHeldoutDrafts(ws, rowsId);
  const search = await loadHeldout(ws, rowsId);
  const teacher = await loadHeldoutDrafts(ws, arg("teacher-loop", `${rowsId}-teacher`));
  const at = <R extends Row>(rows: readonly R[], g: number) => rows.filter((r) => r.generation === g);
  const gens = [...new Set(drafts.map((r) => r.generation))].sort((a, b) => a - b);
  const pairs: [string, string, Row[], Row[]][] = [];
  for (const g of gens.slice(1)) {
    pairs.push([`g${g} − g${g - 1}`, "policy", at(drafts, g), at(drafts, g - 1)]);
    if (g > 1) pairs.push([`g${g} − g0`, "policy", at(drafts, g), at(drafts, 0)]);
    if (teacher.length) pairs.push([`g${g} − teacher`, "policy", at(drafts, g), teacher]);
    pairs.push([`g${g} − g${g - 1}`, "search", at(search, g), at(search, g - 1)]);
    if (g > 1) pairs.push([`g${g} − g0`, "search", at(search, g), at(search, 0)]);
  }
  const measured = pairs.filter(([, , a, b]) => a.length > 0 && b.length > 0);
  const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}]` : "–");
  console.log(`loop ${loopId}${rowsId === loopId ? "" : `, rows ${rowsId}`}: ${norm.size} held-out tasks with a normalised score\n`);
  console.log("| comparison | level | Δ score, tasks resampled | Δ score, tasks and draws | win, tasks resampled | win, tasks and draws |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, level, a, b] of measured)
    console.log(`| ${name} | ${level} | ${ci(pairedGenerations(taskFigures(a, norm), taskFigures(b, norm)))} | ` +
      `${ci(pairedWithDraws(a, b, norm))} | ${ci(pairedWinRate(a, b, higher))} | ${ci(winRateWithDraws(a, b, higher))} |`);
  console.log("\n| comparison | level | tasks | draws | mean Δ | ± now | observed V | draw noise W | task spread H | W share | ± 2× draws | ± 2× tasks | tasks needed | draws needed |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const [name, level, a, b] of measured) {
    const s = noiseSplit(drawnCredits(a, norm), drawnCredits(b, norm));
    if (!s) { console.log(`| ${name} | ${level} | – | – | – | – | – | – | – | – | – | – | – | – |`); continue; }
    const share = s.observed > 0 ? Math.min(1, s.within / s.observed) : null;
    console.log(`| ${name} | ${level} | ${s.tasks} | ${f(s.draws, 1)} | ${f(s.mean)} | ${f(s.halfWidth)} | ${s.observed.toExponential(2)} | ${s.within.toExponential(2)} | ` +
      `${s.between.toExponential(2)} | ${share === null ? "–" : `${(100 * share).toFixed(0)} %`} | ${f(projectedHalfWidth(s, 2 * s.draws, s.tasks))} | ` +
      `${f(projectedHalfWidth(s, s.draws, 2 * s.tasks))} | ${s.tasksNeeded ?? "–"} | ${s.drawsNeeded ?? "none"} |`);
  }
} finally {
  ws.close();
}
