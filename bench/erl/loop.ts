// The closed-loop benchmark (issue 13): generation k+1 vs k on held-out tasks at equal budget.
// Runs (or resumes: the same arguments give the same loop id) erl.loop() and prints per generation the
// held-out mean normalised score (mean over tasks per seed, then mean ± std over seeds), test scores and
// valid rates, plus the per-task table.
//   npx tsx bench/erl/loop.ts [--workspace workspaces/bench-loop] [--preset laptop] [--generations 2] [--seeds 1,2,3]
//     [--train penguins,cars,breast-cancer,diabetes,seattle-weather,sentiment] [--heldout wine,co2-concentration,spam-assassin,digits]
//     [--table-only] [--loop-id ID: another loop of the workspace, e.g. a re-evaluation by reeval.ts] [--refresh-baselines: re-run missing baseline pairs and renormalise the stored rows first]
import { loop, loadHeldout, refreshBaselines, type HeldoutRow } from "../../kit/erl/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { configHash, openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const list = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);
const train = await benchTasks(arg("train", "penguins,cars,breast-cancer,diabetes,seattle-weather,sentiment"));
const held = await benchTasks(arg("heldout", "wine,co2-concentration,spam-assassin,digits"));
const config = { preset: arg("preset", "laptop") as "smoke" | "laptop" | "paper", generations: Number(arg("generations", "2")), seeds: list(arg("seeds", "1,2,3")).map(Number) };
const wsDir = arg("workspace", "workspaces/bench-loop");

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
const sd = (xs: number[]) => { const m = mean(xs); return xs.length > 1 ? Math.sqrt(xs.reduce((t, x) => t + (x - m) ** 2, 0) / (xs.length - 1)) : 0; };
const f = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "–");

function table(rows: HeldoutRow[]): string {
  const gens = [...new Set(rows.map((r) => r.generation))].sort((a, b) => a - b);
  const out = ["| generation | checkpoint | held-out mean normalised (± std over seeds) | tasks with baselines | mean valid rate |", "|---|---|---|---|---|"];
  for (const g of gens) {
    const rs = rows.filter((r) => r.generation === g);
    const seeds = [...new Set(rs.map((r) => r.seed))];
    const bySeed = seeds.map((s) => mean(rs.filter((r) => r.seed === s && r.normalized !== null).map((r) => r.normalized!))).filter(Number.isFinite);
    const tasks = new Set(rs.filter((r) => r.normalized !== null).map((r) => r.taskId)).size;
    out.push(`| ${g} | ${rs[0]!.checkpoint} | ${f(mean(bySeed))} ± ${f(sd(bySeed))} | ${tasks} | ${f(mean(rs.map((r) => r.validRate)), 2)} |`);
  }
  out.push("", "| generation | task | seeds | mean test score | mean normalised | mean valid rate | mean draft score |", "|---|---|---|---|---|---|---|");
  for (const g of gens) {
    for (const t of [...new Set(rows.map((r) => r.taskId))]) {
      const rs = rows.filter((r) => r.generation === g && r.taskId === t);
      out.push(`| ${g} | ${t} | ${rs.length} | ${f(mean(rs.filter((r) => r.testScore !== null).map((r) => r.testScore!)), 4)} | ${f(mean(rs.filter((r) => r.normalized !== null).map((r) => r.normalized!)))} | ${f(mean(rs.map((r) => r.validRate)), 2)} | ${f(mean(rs.filter((r) => r.meanDraftScore !== null).map((r) => r.meanDraftScore!)), 4)} |`);
    }
  }
  return out.join("\n");
}

async function main() {
  const trainTasks = [];
  for (const id of train) trainTasks.push(await resolveTask(id));
  const heldoutTasks = [];
  for (const id of held) heldoutTasks.push(await resolveTask(id));
  const loopId = arg("loop-id", `bench-${configHash({ train, held, config }).slice(0, 8)}`);
  const ws = await openWorkspace(wsDir);
  const t0 = Date.now();
  try {
    if (!process.argv.includes("--table-only")) {
      await loop({ workspace: ws, loopId, trainTasks, heldoutTasks, config, onEvent: (e) => {
        if (e.type === "stage-start" || e.type === "stage-skipped") console.error(`${new Date().toISOString().slice(11, 19)} generation ${e.generation}: ${e.stage}${e.type === "stage-skipped" ? " (done earlier)" : ""}`);
      } });
    }
    if (process.argv.includes("--refresh-baselines")) await refreshBaselines(ws, loopId, heldoutTasks);
    console.log(`loop ${loopId} (${config.preset}, ${config.generations} generations, seeds ${config.seeds.join(",")}; train ${train.join(",")}; held out ${held.join(",")}), ${((Date.now() - t0) / 60000).toFixed(1)} min\n`);
    console.log(table(await loadHeldout(ws, loopId)));
  } finally {
    ws.close();
  }
}

await main();
