// What an SFT dataset's parallel path selected from (issue 30): per training task, the collecting policy's attempts are
// drawn again from their recorded seeds (collectSft's keyedSeed(seed, `<task>#<attempt>`)), every program looked up in
// the workspace's stored graded runs (testScoresByCode; a program without one failed), and compared with the drafts the
// dataset kept. Reports per dataset: attempts per task, distinct programs among them, valid share, and the
// selection's lead, the paired win rate of a kept draft over an attempt (kit/erl pairedWinRate: P(kept beats attempt)
// − ½, bootstrap over tasks). A self-taught generation learns from that lead: a policy whose attempts are alike
// leaves the top-k little to pick. Checks the replay first: every kept program must be one of its task's attempts.
// Reads stored rows; runs nothing.
//   npx tsx bench/erl/selection.ts --workspace workspaces/bench-learning-b60u --dataset learn-b6c48064-g0,learn-b6c48064-g1
import { datasetInfo, draftContext, loadDataset, pairedWinRate, resolvePolicyParams, type WinRow } from "../../kit/erl/index.js";
import { metricDirections, resolveTask } from "../../kit/gym/index.js";
import { createCheckpointPolicy } from "../../kit/policy/index.js";
import { codeHash, testScoresByCode } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { createRng, keyedSeed } from "../../kit/util/rng.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d));
const names = arg("dataset", "").split(",").filter(Boolean);
if (!names.length) throw new Error("pass --dataset NAME[,NAME]");
const ws = await openWorkspace(arg("workspace", "workspaces/bench-learning"), { readOnly: true });
try {
  console.log("| dataset | collecting policy | tasks | attempts per task | distinct programs per task | valid share | kept per task | lead of kept over attempts (win) |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const name of names) {
    const kept = (await loadDataset(ws, name)).filter((e) => e.operator === "draft" && e.path === "parallel");
    if (!kept.length) throw new Error(`dataset "${name}" has no parallel Draft examples`);
    // The collecting run's settings and per-task attempt counts (collectSft's info) and its one teacher.
    const info = await datasetInfo(ws, name);
    const { seed, perRunTimeoutS } = info!.config as { seed: number; perRunTimeoutS: number };
    const attemptsOf = new Map((info!.parallel as { taskId: string; attempts: number }[]).map((p) => [p.taskId, p.attempts]));
    const teachers = [...new Set(kept.map((e) => e.teacher))];
    if (teachers.length !== 1) throw new Error(`${name}: ${teachers.join(", ")} wrote its drafts; one teacher is expected`);
    const checkpoint = teachers[0] === "grammar" ? "default" : teachers[0]!.replace(/^grammar:/, "");
    const policy = createCheckpointPolicy((await resolvePolicyParams(checkpoint, ws)).params, checkpoint);
    const taskIds = [...new Set(kept.map((e) => e.taskId))].sort();
    const tasks = await Promise.all(taskIds.map((t) => resolveTask(t)));
    const higher = metricDirections(tasks);
    const [keptRows, attemptRows]: [WinRow[], WinRow[]] = [[], []];
    let [distinct, valid, missing] = [0, 0, 0];
    for (const task of tasks) {
      const graded = await testScoresByCode(ws, task.meta.id);
      const codes: string[] = [];
      for (let a = 0; a < attemptsOf.get(task.meta.id)!; a++) {
        const out = await policy.propose(task, "draft", draftContext(perRunTimeoutS), createRng(keyedSeed(seed, `${task.meta.id}#${a}`)));
        codes.push(out.code ?? "");
      }
      // Programs rendered before bbe69ff lack random_state=SEED on LinearSVC/LinearSVR: look those up as they ran.
      const hashes = codes.map((c) => {
        const h = codeHash(c);
        const before = codeHash(c.replace(/(LinearSV[CR]\([^()]*?), random_state=SEED\)/g, "$1)"));
        return graded.has(h) || !graded.has(before) ? h : before;
      });
      for (const h of hashes) attemptRows.push({ taskId: task.meta.id, testScore: graded.get(h) ?? null });
      distinct += new Set(hashes).size;
      valid += hashes.filter((h) => graded.has(h)).length;
      for (const e of kept.filter((x) => x.taskId === task.meta.id)) {
        const h = codeHash(e.program);
        if (!hashes.includes(h)) missing++;
        keptRows.push({ taskId: task.meta.id, testScore: graded.get(h) ?? null });
      }
    }
    if (missing) throw new Error(`${name}: ${missing} kept programs are not among the replayed attempts (the replay is not exact)`);
    const lead = pairedWinRate(keptRows, attemptRows, higher);
    const n = tasks.length;
    console.log(`| ${name} | ${checkpoint} | ${n} | ${f(attemptRows.length / n, 1)} | ${f(distinct / n, 2)} | ${f(valid / attemptRows.length, 2)} | ` +
      `${f(keptRows.length / n, 2)} | ${lead ? `${f(lead.mean)} [${f(lead.lo)}, ${f(lead.hi)}]` : "–"} |`);
  }
} finally {
  ws.close();
}
