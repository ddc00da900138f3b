// Which built-in task shows what a policy's choices do? The spread of the grammar policy's draft scores
// across seeds, per task (issue 26 item 5: notebook 04's live part picks its task from this table).
// Usage: npx tsx bench/notebooks/draft-spread.ts [--tasks a,b] [--seeds 1,2,3,4,5] [--drafts 2] [--out bench/notebooks]
// Each seed is one OpenMLE-Evo run of `drafts` steps with `drafts` generation-0 drafts (so every node is a
// draft), in a fresh temporary workspace per task (identical programs within a task reuse the sandbox's
// record, which is why the per-draft time is the mean over the task's drafts, not of a cold run each).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve } from "../../kit/evo/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { runSandbox } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const { values: a } = parseArgs({ options: {
  tasks: { type: "string", default: "penguins,cars,seattle-weather,co2-concentration,breast-cancer,wine,diabetes,digits" },
  seeds: { type: "string", default: "1,2,3,4,5" }, drafts: { type: "string", default: "2" }, out: { type: "string", default: "bench/notebooks" },
} });
const drafts = Number(a.drafts);
interface Row { task: string; metric: string; higherIsBetter: boolean; drafts: number; invalid: number; distinct: number;
  mean: number; std: number; range: number; relRange: number; secPerDraft: number; scores: number[] }
const rows: Row[] = [];
const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(1) : Math.abs(x) >= 1 ? x.toFixed(3) : x.toFixed(4));
for (const taskId of await benchTasks(a.tasks!)) {
  const task = await resolveTask(taskId);
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "draft-spread-")), "ws"));
  const scores: number[] = [];
  let invalid = 0;
  const t0 = Date.now();
  try {
    for (const seed of a.seeds!.split(",").map(Number)) {
      const r = await evolve({ task, workspace: ws, evaluate: (job) => runSandbox({ ...job, workspace: ws }),
        config: { harness: "openmle", seed, steps: drafts, gen0Drafts: drafts, perRunTimeoutS: 600 } });
      for (const n of r.nodes) n.validScore === null ? invalid++ : scores.push(n.validScore);
    }
  } finally {
    ws.close();
  }
  const n = scores.length;
  const mean = scores.reduce((s, x) => s + x, 0) / Math.max(n, 1);
  const std = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(n - 1, 1));
  const range = n ? Math.max(...scores) - Math.min(...scores) : 0;
  const row: Row = { task: taskId, metric: task.meta.metric, higherIsBetter: task.meta.higherIsBetter, drafts: n + invalid, invalid,
    distinct: new Set(scores.map((s) => s.toPrecision(6))).size, mean, std, range, relRange: mean ? range / Math.abs(mean) : 0,
    secPerDraft: (Date.now() - t0) / 1000 / Math.max(n + invalid, 1), scores };
  rows.push(row);
  process.stdout.write(`${taskId}: ${n} valid, distinct ${row.distinct}, mean ${fmt(mean)}, std ${fmt(std)}, range ${fmt(range)} (${(100 * row.relRange).toFixed(1)} % of mean), ${row.secPerDraft.toFixed(1)} s/draft\n`);
}
const md = ["| task | metric | drafts (invalid) | distinct scores | mean | std | range | range / mean | s per draft |", "|---|---|---|---|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.task} | ${r.metric} (${r.higherIsBetter ? "↑" : "↓"}) | ${r.drafts} (${r.invalid}) | ${r.distinct} | ${fmt(r.mean)} | ${fmt(r.std)} | ${fmt(r.range)} | ${(100 * r.relRange).toFixed(1)} % | ${r.secPerDraft.toFixed(1)} |`)];
writeFileSync(join(a.out!, "draft-spread.json"), `${JSON.stringify(rows, null, 1)}\n`);
writeFileSync(join(a.out!, "draft-spread.md"), `${md.join("\n")}\n`);
console.log(md.join("\n"));
