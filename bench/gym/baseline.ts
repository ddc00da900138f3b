// A per-task baseline for the learning issues (issue 27): a 4-step grammar-policy OpenMLE-Evo run on every accepted
// corpus task, with its valid rate, best validation score, and the task's reference-model headroom.
// Usage: npx tsx bench/gym/baseline.ts [--suite all|train|heldout] [--steps 4] [--jobs 2] [--budget-s S] [--out bench/gym]
// Each task runs in its own temporary workspace; `jobs` tasks run at once. With --budget-s no task starts after that
// many seconds (the results say how many of the suite's tasks ran); baseline.json is rewritten after every task.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve } from "../../kit/evo/index.js";
import { readCorpusIndex, resolveTask, suiteTasks } from "../../kit/gym/index.js";
import { runSandbox } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const { values: a } = parseArgs({
  options: {
    suite: { type: "string", default: "all" }, steps: { type: "string", default: "4" },
    jobs: { type: "string", default: "2" }, out: { type: "string", default: "bench/gym" },
    "budget-s": { type: "string", default: "0" },
  },
});
const index = await readCorpusIndex();
const tasks = suiteTasks(index, a.suite as "all");
interface Row { task: string; suite: string; modality: string; metric: string; nodes: number; valid: number;
  best: number | null; headroom: number | null; wall_s: number }
const rows: Row[] = [];
let next = 0;
const t0 = Date.now();
const budgetMs = Number(a["budget-s"]) * 1000;
const save = () =>
  writeFileSync(join(a.out!, "baseline.json"), `${JSON.stringify({ suite: a.suite, suite_tasks: tasks.length,
    steps: Number(a.steps), wall_s: (Date.now() - t0) / 1000, rows }, null, 1)}\n`);
const worker = async () => {
  while (next < tasks.length && (!budgetMs || Date.now() - t0 < budgetMs)) {
    const t = tasks[next++]!;
    const dir = mkdtempSync(join(tmpdir(), "gym-baseline-"));
    const t0 = Date.now();
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      const task = await resolveTask(t.id);
      const r = await evolve({ task, workspace: ws, evaluate: (job) => runSandbox({ ...job, workspace: ws }),
        config: { harness: "openmle", seed: 1, steps: Number(a.steps), perRunTimeoutS: 600 } });
      const valid = r.nodes.filter((n) => n.validScore !== null);
      const scores = valid.map((n) => n.validScore!);
      const best = scores.length ? (task.meta.higherIsBetter ? Math.max(...scores) : Math.min(...scores)) : null;
      rows.push({ task: t.id, suite: t.suite, modality: t.modality, metric: t.metric, nodes: r.nodes.length,
        valid: valid.length, best, headroom: t.headroom, wall_s: (Date.now() - t0) / 1000 });
      process.stderr.write(`${rows.length}/${tasks.length} ${t.id}: ${valid.length}/${r.nodes.length} valid, best ${best?.toPrecision(4) ?? "—"}\n`);
    } catch (e) {
      rows.push({ task: t.id, suite: t.suite, modality: t.modality, metric: t.metric, nodes: 0, valid: 0, best: null,
        headroom: t.headroom, wall_s: (Date.now() - t0) / 1000 });
      process.stderr.write(`${t.id}: failed: ${(e as Error).message.split("\n")[0]}\n`);
    } finally {
      ws.close();
      rmSync(dir, { recursive: true, force: true });
      save();
    }
  }
};
await Promise.all(Array.from({ length: Number(a.jobs) }, worker));
rows.sort((x, y) => x.task.localeCompare(y.task));
const nodes = rows.reduce((s, r) => s + r.nodes, 0);
const valid = rows.reduce((s, r) => s + r.valid, 0);
const byMod = new Map<string, { tasks: number; nodes: number; valid: number; anyValid: number }>();
for (const r of rows) {
  const m = byMod.get(r.modality) ?? { tasks: 0, nodes: 0, valid: 0, anyValid: 0 };
  m.tasks++; m.nodes += r.nodes; m.valid += r.valid; m.anyValid += r.valid > 0 ? 1 : 0;
  byMod.set(r.modality, m);
}
save();
console.log(`${rows.length} of ${tasks.length} tasks of suite ${a.suite}, ${nodes} nodes, valid rate ${((100 * valid) / Math.max(nodes, 1)).toFixed(1)} %, wall ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log("| modality | tasks | nodes | valid rate | tasks with a valid node |\n|---|---|---|---|---|");
for (const [k, m] of [...byMod].sort()) console.log(`| ${k} | ${m.tasks} | ${m.nodes} | ${((100 * m.valid) / Math.max(m.nodes, 1)).toFixed(1)} % | ${m.anyValid} |`);
