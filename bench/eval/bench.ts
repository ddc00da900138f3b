// Benchmarks of kit/eval and kit/report. Run: npm run build && node dist/bench/eval/bench.js
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gradeScore, liteCompetitionIds, loadLiteLeaderboard } from "../../kit/eval/index.js";
import { writeReport } from "../../kit/report/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { runToySearch, TOY_TASK_ID, toyBaselines } from "./toy-search.js";

// 1. Grading throughput: 1,000 scores spread over each of the 22 Lite leaderboards.
const ids = liteCompetitionIds();
const lbs = ids.map((id) => loadLiteLeaderboard(id));
let t0 = performance.now();
let n = 0;
for (const lb of lbs) {
  const lo = Math.min(...lb.scores);
  const hi = Math.max(...lb.scores);
  for (let i = 0; i < 1000; i++, n++) gradeScore(lb, lo + ((hi - lo) * i) / 999);
}
const gradeMs = performance.now() - t0;
console.log(`grading: ${n} grades over ${ids.length} leaderboards (${lbs.reduce((a, l) => a + l.scores.length, 0)} rows) in ${gradeMs.toFixed(0)} ms (${((1000 * gradeMs) / n).toFixed(1)} µs/grade)`);

// 2. Report: toy workspace of 6 runs × 24 nodes; HTML only, then HTML + PNGs in headless Chromium.
const root = mkdtempSync(join(tmpdir(), "bench-eval-"));
const ws = await openWorkspace(join(root, "ws"));
t0 = performance.now();
for (const harness of ["toy-greedy", "toy-evo"] as const) for (const seed of [1, 2, 3]) await runToySearch(ws, { seed, harness, steps: 24 });
console.log(`toy search: 6 runs × 24 nodes in ${(performance.now() - t0).toFixed(0)} ms`);
const baselines = { [TOY_TASK_ID]: toyBaselines() };
t0 = performance.now();
const html = await writeReport(ws, join(root, "html"), { baselines, png: false });
console.log(`report (HTML only): ${html.figures.length} figures in ${(performance.now() - t0).toFixed(0)} ms`);
t0 = performance.now();
const png = await writeReport(ws, join(root, "png"), { baselines });
console.log(`report (HTML + PNGs via Chromium): ${png.pngs.length} PNGs, all drawn: ${png.figures.every((f) => f.drawn && f.hasSvg)}, in ${(performance.now() - t0).toFixed(0)} ms`);
ws.close();
rmSync(root, { recursive: true, force: true });
