// Benchmark (a): the harnesses × seeds × built-in tasks at equal step budget with the grammar
// policy and the real sandbox. Usage:
//   npx tsx bench/evo/harnesses.ts --tasks penguins,seattle-weather,digits,sentiment --seeds 1,2,3 --steps 8 --out bench/evo/results \
//     [--workspace workspaces/bench-evo] [--harnesses openmle,aira-evo] [--baselines-only]
// --baselines-only runs the tasks' baselines and stops: run it once before starting one process per harness
// (each with its own --harnesses), so parallel processes never race on <out>/baselines.json.
// One workspace per harness (<workspace>-<harness>): no execution record is reused across harnesses.
// Baselines (kit/eval runBaselines) are run once per task into <out>/baselines.json for the normalised score.
// Appends one JSON line per run to <out>/harnesses.jsonl (resumable: finished runs are skipped) and
// writes <out>/harnesses.md with the tables.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve, HARNESSES } from "../../kit/evo/index.js";
import { validationGap } from "../../kit/report/index.js";
import { normalizedScore, runBaselines } from "../../kit/eval/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { createGrammarPolicy } from "../../kit/policy/index.js";
import { runSandbox } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const { values: a } = parseArgs({ options: {
  tasks: { type: "string", default: "penguins,seattle-weather,digits,sentiment" }, seeds: { type: "string", default: "1,2,3" },
  steps: { type: "string", default: "8" }, out: { type: "string", default: "bench/evo/results" },
  workspace: { type: "string", default: "workspaces/bench-evo" }, "table-only": { type: "boolean", default: false }, "baselines-only": { type: "boolean", default: false }, harnesses: { type: "string", default: HARNESSES.join(",") },
} });
mkdirSync(a.out!, { recursive: true });
const file = join(a.out!, "harnesses.jsonl");
const done = new Set(existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => { const r = JSON.parse(l); return `${r.task}/${r.harness}/${r.seed}`; }) : []);
const blFile = join(a.out!, "baselines.json");
const baselines: Record<string, { trivial: number | null; reference: number | null }> = existsSync(blFile) ? JSON.parse(readFileSync(blFile, "utf8")) : {};
const harnesses = a.harnesses!.split(",") as (typeof HARNESSES)[number][];
if (!a["table-only"]) {
  for (const taskId of await benchTasks(a.tasks!)) {
    const task = await resolveTask(taskId);
    if (!baselines[taskId]) {
      const b = await runBaselines(task).catch(() => ({ trivial: null, reference: null }));
      baselines[taskId] = { trivial: b.trivial, reference: b.reference };
      writeFileSync(blFile, `${JSON.stringify(baselines, null, 2)}\n`);
      process.stdout.write(`${taskId} baselines: trivial ${baselines[taskId]!.trivial}, reference ${baselines[taskId]!.reference}\n`);
    }
    if (a["baselines-only"]) continue;
    for (const seed of a.seeds!.split(",").map(Number)) for (const harness of harnesses) {
      if (done.has(`${taskId}/${harness}/${seed}`)) continue;
      const t0 = Date.now();
      // One workspace per harness (under workspaces/, git-ignored): identical programs reuse records only within a harness.
      const ws = await openWorkspace(`${a.workspace!}-${harness}`);
      try {
        const res = await evolve({ task, policy: createGrammarPolicy(), workspace: ws, evaluate: (job) => runSandbox({ ...job, workspace: ws }),
          config: { harness, seed, steps: Number(a.steps), perRunTimeoutS: 300 } });
        const row = { task: taskId, modality: task.meta.modality, metric: task.meta.metric, higherIsBetter: task.meta.higherIsBetter, harness, seed,
          steps: res.nodes.length, bestValid: res.summary.champion?.validScore ?? null, test: res.summary.champion?.testScore ?? null,
          validRate: res.summary.validRate, byOperator: res.summary.byOperator, wallS: (Date.now() - t0) / 1000, runId: res.runId };
        appendFileSync(file, `${JSON.stringify(row)}\n`);
        process.stdout.write(`${taskId} ${harness} seed ${seed}: valid ${row.bestValid} test ${row.test} (${row.wallS.toFixed(0)} s)\n`);
      } finally {
        ws.close();
      }
    }
  }
}
if (a["baselines-only"]) process.exit(0);
// Table: mean ± std over seeds per task × harness.
const rows = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const ms = (xs: number[]) => { const m = xs.reduce((s, x) => s + x, 0) / xs.length; const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, xs.length - 1)); return `${m.toFixed(4)} ± ${sd.toFixed(4)}`; };
const lines = ["| task (metric) | harness | runs | best validation | champion test |", "|---|---|---|---|---|"];
for (const t of [...new Set(rows.map((r) => r.task))]) for (const h of HARNESSES) {
  const rs = rows.filter((r) => r.task === t && r.harness === h && r.bestValid !== null);
  if (rs.length) lines.push(`| ${t} (${rs[0].metric}${rs[0].higherIsBetter ? "↑" : "↓"}) | ${h} | ${rs.length} | ${ms(rs.map((r) => r.bestValid))} | ${ms(rs.map((r) => r.test))} |`);
}
// Per harness: normalised = (test − trivial) / (reference − trivial); mean over tasks with baselines per seed, then mean ± std over seeds.
/** The task's baselines when both were measured. */
const known = (task: string) => {
  const b = baselines[task];
  return b && b.trivial !== null && b.reference !== null ? { trivial: b.trivial, reference: b.reference } : undefined;
};
const norm = (r: { task: string; test: number | null; higherIsBetter: boolean }) => {
  const b = known(r.task);
  return b ? normalizedScore(r.test, b, r.higherIsBetter) : null;
};
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
// Champion's validation–test gap in normalised-score units (kit/report validationGap; > 0: validation was optimistic).
const gap = (r: { task: string; bestValid: number | null; test: number | null; higherIsBetter: boolean }) =>
  validationGap(r.bestValid, r.test, r.higherIsBetter, { baselines: known(r.task) });
lines.push("", "| harness | runs | tasks with baselines | mean normalised (± std over seeds) | mean valid rate | champion gap, mean (max) | large gaps (> 0.1) |", "|---|---|---|---|---|---|---|");
for (const h of HARNESSES) {
  const rs = rows.filter((r) => r.harness === h);
  if (!rs.length) continue;
  const seeds = [...new Set(rs.map((r) => r.seed))];
  const bySeed = seeds.map((sd) => rs.filter((r) => r.seed === sd).map(norm).filter((x): x is number => x !== null)).filter((xs) => xs.length).map(mean);
  const tasks = new Set(rs.filter((r) => norm(r) !== null).map((r) => r.task)).size;
  const gaps = rs.map(gap).filter((g): g is NonNullable<typeof g> => g !== null);
  const gapCell = gaps.length ? `${mean(gaps.map((g) => g.relative)).toFixed(3)} (${Math.max(...gaps.map((g) => g.relative)).toFixed(3)})` : "—";
  lines.push(`| ${h} | ${rs.length} | ${tasks} | ${bySeed.length ? ms(bySeed) : "— (no baselines)"} | ${mean(rs.map((r) => r.validRate)).toFixed(2)} | ${gapCell} | ${gaps.filter((g) => g.large).length} of ${gaps.length} |`);
}
writeFileSync(join(a.out!, "harnesses.md"), `${lines.join("\n")}\n`);
process.stdout.write(`${lines.join("\n")}\n`);
