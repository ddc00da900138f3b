// The training-side check of an SFT selection rule (issue 30): are the programs one dataset keeps better than another
// dataset's on the same tasks? Per task both datasets hold examples for, the paired win rate (kit/erl pairedWinRate:
// P(a program of A beats one of B) − ½, bootstrap over tasks) of their programs' graded test scores (the stored
// graded runs, testScoresByCode). Training tasks have no baselines, so no normalised score: the win rate is
// scale-free. Reads stored rows; runs nothing.
//   npx tsx bench/erl/data-lead.ts --workspace workspaces/bench-learning-a60 --a learn-NEW-g0 --b learn-b58c3093-g0 \
//     [--operator draft] [--path parallel]
import { loadDataset, pairedWinRate, type WinRow } from "../../kit/erl/index.js";
import { metricDirections, storedTaskPackages } from "../../kit/gym/index.js";
import { codeHash, testScoresByCode } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const [nameA, nameB] = [arg("a", ""), arg("b", "")];
if (!nameA || !nameB) throw new Error("pass --a DATASET --b DATASET");
const [operator, path] = [arg("operator", "draft"), arg("path", "parallel")];
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const ws = await openWorkspace(arg("workspace", "workspaces/bench-learning"), { readOnly: true });
try {
  const pick = async (name: string) =>
    (await loadDataset(ws, name)).filter((e) => (operator === "all" || e.operator === operator) && (path === "all" || e.path === path));
  const [a, b] = [await pick(nameA), await pick(nameB)];
  const tasks = [...new Set(a.map((e) => e.taskId))].filter((t) => b.some((e) => e.taskId === t)).sort();
  const higher = metricDirections(await storedTaskPackages(ws, tasks));
  const graded = new Map(await Promise.all(tasks.map(async (t) => [t, await testScoresByCode(ws, t)] as const)));
  const rows = (xs: typeof a): WinRow[] =>
    xs.filter((e) => graded.has(e.taskId)).map((e) => ({ taskId: e.taskId, testScore: graded.get(e.taskId)!.get(codeHash(e.program)) ?? null }));
  const [ra, rb] = [rows(a), rows(b)];
  const w = pairedWinRate(ra, rb, higher);
  const ungraded = [...ra, ...rb].filter((r) => r.testScore === null).length;
  console.log(`${operator} examples (${path} path) on the ${tasks.length} tasks both datasets hold: ${ra.length} in ${nameA}, ${rb.length} in ${nameB}` +
    `${ungraded ? ` (${ungraded} without a stored graded run count as failed)` : ""}`);
  console.log(`paired win rate ${nameA} over ${nameB}: ${w ? `${f(w.mean)} [${f(w.lo)}, ${f(w.hi)}] over ${w.n} tasks` : "–"}`);
} finally {
  ws.close();
}
