// Parallel search throughput (issue 17, goal 5): `evolve` with 1 and 2 workers at equal node count,
// alternating per seed in one run (grammar policy, real sandbox, fresh workspace per run so nothing
// is reused); nodes per minute of each, their ratio (goal ≥ 1.8× on 2 cores), and the mean best
// validation score over seeds with its spread (quality must stay within the seed spread).
// Usage: npm run build && node dist/bench/evo/parallel.js [--task digits] [--seeds 1,2,3] [--steps 8]
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve } from "../../kit/evo/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { createGrammarPolicy } from "../../kit/policy/index.js";
import { runSandbox } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const { values: a } = parseArgs({ options: {
  task: { type: "string", default: "digits" }, seeds: { type: "string", default: "1,2,3" }, steps: { type: "string", default: "8" },
} });
const task = await resolveTask(a.task!);
const seeds = a.seeds!.split(",").map(Number);
const steps = Number(a.steps);
const la = () => loadavg().map((x) => x.toFixed(1)).join(" ");
console.log(`${availableParallelism()} cores, load average ${la()}; task ${task.meta.id}, ${steps} nodes per run, seeds ${seeds.join(",")}`);

async function run(workers: number, seed: number) {
  const dir = mkdtempSync(join(tmpdir(), "openmle-bench-par-"));
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    const t0 = performance.now();
    const res = await evolve({ task, policy: createGrammarPolicy(), workspace: ws, evaluate: (job) => runSandbox({ ...job, workspace: ws }),
      config: { seed, steps, workers, perRunTimeoutS: 300 } });
    const minutes = (performance.now() - t0) / 60000;
    return { nodesPerMin: res.nodes.length / minutes, best: res.summary.champion?.validScore ?? null };
  } finally {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const out: Record<number, { nodesPerMin: number; best: number | null }[]> = { 1: [], 2: [] };
for (const [i, seed] of seeds.entries()) {
  // Alternate which goes first.
  for (const w of i % 2 ? [2, 1] : [1, 2]) {
    const r = await run(w, seed);
    out[w]!.push(r);
    console.log(`seed ${seed} workers ${w}: ${r.nodesPerMin.toFixed(2)} nodes/min, best validation ${r.best?.toFixed(4) ?? "none"} (load ${la()})`);
  }
}
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const sd = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / Math.max(1, xs.length - 1));
const rate = (w: number) => mean(out[w]!.map((r) => r.nodesPerMin));
const bests = (w: number) => out[w]!.map((r) => r.best).filter((x): x is number => x !== null);
// Pooled: all nodes over all minutes per worker count (runs of slow seeds weigh by their time, as in a long search).
const pooled = (w: number) => (steps * out[w]!.length) / out[w]!.reduce((s, r) => s + steps / r.nodesPerMin, 0);
const ratio = pooled(2) / pooled(1);
console.log(`per seed 2 workers / 1 worker: ${seeds.map((sd, i) => `seed ${sd} ${(out[2]![i]!.nodesPerMin / out[1]![i]!.nodesPerMin).toFixed(2)}×`).join(", ")}`);
console.log(`nodes/min, mean of runs: 1 worker ${rate(1).toFixed(2)}, 2 workers ${rate(2).toFixed(2)} → ${(rate(2) / rate(1)).toFixed(2)}×`);
console.log(`nodes/min, pooled: 1 worker ${pooled(1).toFixed(2)}, 2 workers ${pooled(2).toFixed(2)} → ${ratio.toFixed(2)}× (goal ≥ 1.8×: ${ratio >= 1.8 ? "met" : "not met"})`);
console.log(`best validation, mean ± sd over seeds: 1 worker ${mean(bests(1)).toFixed(4)} ± ${sd(bests(1)).toFixed(4)}, 2 workers ${mean(bests(2)).toFixed(4)} ± ${sd(bests(2)).toFixed(4)}`);
console.log(`load average after ${la()}`);
