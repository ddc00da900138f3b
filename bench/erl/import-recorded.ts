// Copies policy-level held-out rows (loop_heldout_drafts) of a recorded run (data/recorded-runs/NAME) into a
// workspace, under their own loop ids, so versus.ts and offpolicy.ts can pair them with the workspace's rows. Only
// meaningful where the programs are the same: same held-out tasks, draw seeds and checkpoint params (a built-in
// checkpoint such as `uniform` or `default`, or one whose params the workspace holds). --check ROWS:GEN,ROWS:GEN first
// compares the recorded rows of the first with the workspace's rows of the second on the draws both have, and refuses
// to import when any status differs or any test score differs by more than 1e-9 relative (the last digits move with
// the BLAS threads' summation order). Where it refuses, it lists the differing draws with the models their programs
// fit, rendered again from the draw seeds of the workspace loop (`--loop ID`, default the rows' id) and the rows'
// checkpoint: that tells a changed program (e.g. an unseeded estimator) from the same program graded differently.
// --baselines ID[,ID] also copies the baselines stored under each id (reeval.ts --heldout-count stores them), after
// comparing them, task for task, with those of --check's workspace loop (refused where any differs by > 1e-9 relative).
//   npx tsx bench/erl/import-recorded.ts --recorded learning-armA60s --workspace workspaces/bench-learning-a60 \
//     --check learn-b58c3093:0,learn-18627e2b:0 --rows learn-b58c3093-d32:0,learn-b58c3093-d32-teacher:0
import {
  loadHeldoutDrafts, loopBaselines, loopConfig, replaceHeldoutDrafts, saveBaselines, type HeldoutDraftRow,
} from "../../kit/erl/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { openWorkspace, type Workspace } from "../../kit/store/index.js";
import { relativeGap, renderDraws, side } from "./rows.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const load = async (w: Awaited<ReturnType<typeof openWorkspace>>, s: string): Promise<HeldoutDraftRow[]> => {
  const { rows, generation } = side(s);
  return (await loadHeldoutDrafts(w, rows)).filter((r) => r.generation === generation);
};
// The estimators a draw's program fits, rendered again exactly as heldoutDrafts drew it.
const modelsOf = async (w: Workspace, loop: string, r: HeldoutDraftRow): Promise<string> => {
  if (!(await loopConfig(w, loop))) return `(no loop "${loop}" here to render from: pass --loop)`;
  const [g] = await renderDraws(w, loop, [r], [await resolveTask(r.taskId)]);
  const fits = (g!.code!.match(/\b[A-Z]\w*\(/g) ?? []).filter((c) => /(Regressor|Classifier|Regression|SV[CR]|Ridge|Lasso|ElasticNet|NB)\($/.test(c));
  return [...new Set(fits)].join(" ") || "(no estimator call)";
};
const rec = await openRecordedRuns(arg("recorded", ""));
const ws = await openWorkspace(arg("workspace", ""));
try {
  if (arg("check", "")) {
    const [a, b] = arg("check", "").split(",") as [string, string];
    const [ra, rb] = [await load(rec, a), await load(ws, b)];
    const key = (r: HeldoutDraftRow) => `${r.taskId}#${r.draft}`;
    const bm = new Map(rb.map((r) => [key(r), r]));
    const both = ra.filter((r) => bm.has(key(r)));
    // Equal up to floating-point summation order (BLAS threads): relative 1e-9; statuses exactly.
    const gap = both.map((r) => (r.status === bm.get(key(r))!.status ? relativeGap(r.testScore, bm.get(key(r))!.testScore) : Infinity));
    const diff = gap.filter((g) => g > 1e-9);
    console.log(`check ${a} (recorded) against ${b} (workspace): ${both.length} draws in both, ${diff.length} with a different ` +
      `grade (largest relative difference of the rest ${Math.max(0, ...gap.filter((g) => g <= 1e-9)).toExponential(1)})`);
    for (const r of both.filter((_, i) => gap[i]! > 1e-9)) {
      const m = bm.get(key(r))!;
      console.log(`  ${r.taskId} draft ${r.draft}: ${r.status} ${r.testScore} → ${m.status} ${m.testScore}; ` +
        `${await modelsOf(ws, arg("loop", side(b).rows), m)}`);
    }
    if (!both.length || diff.length) throw new Error("the recorded programs do not reproduce here: nothing imported");
  }
  for (const s of arg("rows", "").split(",").filter(Boolean)) {
    const rows = await load(rec, s);
    if (!rows.length) throw new Error(`no rows ${s} in the recorded run`);
    const have = await load(ws, s);
    if (have.length) { console.log(`${s}: ${have.length} rows already in the workspace, skipped`); continue; }
    for (const t of [...new Set(rows.map((r) => r.taskId))])
      await replaceHeldoutDrafts(ws, rows[0]!.loopId, rows[0]!.generation, t, rows.filter((r) => r.taskId === t));
    console.log(`${s}: imported ${rows.length} rows`);
  }
  for (const id of arg("baselines", "").split(",").filter(Boolean)) {
    const b = await loopBaselines(rec, id);
    if (!Object.keys(b).length) throw new Error(`no baselines stored under "${id}" in the recorded run`);
    const mine = arg("check", "") ? await loopBaselines(ws, side(arg("check", "").split(",")[1]!).rows) : {};
    const shared = Object.keys(mine).filter((t) => b[t]);
    const off = shared.filter((t) => relativeGap(b[t]!.trivial, mine[t]!.trivial) > 1e-9 || relativeGap(b[t]!.reference, mine[t]!.reference) > 1e-9);
    console.log(`baselines ${id}: ${Object.keys(b).length} tasks; ${shared.length} shared with the workspace loop, ${off.length} different`);
    if (off.length) throw new Error(`baselines of ${off.join(", ")} differ from the workspace loop's: not imported`);
    await saveBaselines(ws, id, b);
  }
} finally {
  ws.close();
  rec.close();
}
