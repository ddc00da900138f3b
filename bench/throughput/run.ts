// Throughput (issue 28): start-up warm vs cold, and nodes per minute of OpenMLE-Evo (grammar policy) on a task
// list chosen by a fixed rule (the first --first tasks by id of --tasks), each mode in one run side by side:
// local cold, local warm, and the Redis queue (warm workers, equal slots) when redis-server exists.
// Usage: npx tsx bench/throughput/run.ts [--tasks suite:dev] [--first 8] [--steps 24] [--workers 2]
//        [--seed 1] [--modes cold,warm,queue] [--startup-reps 5] [--out bench/throughput/results.json]
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve } from "../../kit/evo/index.js";
import { resolveTask, type TaskPackage } from "../../kit/gym/index.js";
import { createGrammarPolicy } from "../../kit/policy/index.js";
import {
  LocalExecutor, runSandbox, SandboxQueueClient, startSandboxWorker, WarmExecutor, type ExecutionRecord, type Executor,
  type SandboxJob,
} from "../../kit/sandbox/index.js";
import { startRedis } from "../../kit/sandbox/queue-test-helpers.js";
import { openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const { values: a } = parseArgs({ options: {
  tasks: { type: "string", default: "suite:dev" }, first: { type: "string", default: "8" },
  steps: { type: "string", default: "24" }, workers: { type: "string", default: "2" }, seed: { type: "string", default: "1" },
  modes: { type: "string", default: "cold,warm,queue" }, "startup-reps": { type: "string", default: "5" },
  out: { type: "string", default: "bench/throughput/results.json" },
} });
const la = () => loadavg().map((x) => x.toFixed(1)).join(" ");
const ids = (await benchTasks(a.tasks!)).sort().slice(0, Number(a.first));
const tasks: TaskPackage[] = [];
for (const id of ids) tasks.push(await resolveTask(id));
const [steps, workers, seed] = [Number(a.steps), Number(a.workers), Number(a.seed)];
const median = (x: number[]) => { const s = [...x].sort((p, q) => p - q); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
console.log(`${availableParallelism()} cores, load average ${la()}; ${tasks.length} tasks (${a.tasks} by id, first ${a.first}): ${ids.join(", ")}`);

// 1. Start-up: the same program, alternating cold and warm (which goes first flips every pair).
const cold = new LocalExecutor();
const warm = new WarmExecutor({ onWarning: (m) => console.log(`warning: ${m}`) });
const startupCode = [
  "import numpy, pandas as pd, sklearn.ensemble, sklearn.linear_model, sklearn.model_selection",
  "pd.read_csv('/data/sample_submission.csv').to_csv('submission.csv', index=False)",
  "print('Final Validation Score: 0.5')",
].join("\n");
const startup: { cold: number[]; warm: number[] } = { cold: [], warm: [] };
const limits = { timeoutS: 120, memoryMb: 2048, cpus: 1 };
await runSandbox({ task: tasks[0]!, code: startupCode, limits, executor: warm, rerun: true }); // the zygote starts
for (let i = 0; i < Number(a["startup-reps"]); i++) {
  for (const m of i % 2 ? (["warm", "cold"] as const) : (["cold", "warm"] as const)) {
    const r = await runSandbox({ task: tasks[0]!, code: startupCode, limits, executor: m === "warm" ? warm : cold, rerun: true });
    startup[m].push(r.wallS);
  }
}
const startupRatio = median(startup.warm) / median(startup.cold);
console.log(`start-up (program wall, median of ${startup.cold.length}): cold ${median(startup.cold).toFixed(3)} s, warm ${median(startup.warm).toFixed(3)} s → ${startupRatio.toFixed(3)}× (goal ≤ 0.25×: ${startupRatio <= 0.25 ? "met" : "not met"})`);

// 2. Nodes per minute: every task, `steps` nodes with `workers` in flight, a fresh workspace per task and mode.
type Row = { mode: string; task: string; nodes: number; wallS: number; programS: number; champion: string | null; valid: number | null; test: number | null };
async function search(mode: string, task: TaskPackage, evaluate: (job: SandboxJob) => Promise<ExecutionRecord>): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), "openmle-bench-tp-"));
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    let programS = 0;
    const timed = async (job: SandboxJob) => { const r = await evaluate(job); programS += r.wallS; return r; };
    const t0 = performance.now();
    const res = await evolve({ task, policy: createGrammarPolicy(), workspace: ws, evaluate: timed, config: { seed, steps, workers, perRunTimeoutS: 300 } });
    const wallS = (performance.now() - t0) / 1000;
    const c = res.champion;
    return { mode, task: task.meta.id, nodes: res.nodes.length, wallS, programS, champion: c?.code ?? null, valid: c?.validScore ?? null, test: c?.testScore ?? null };
  } finally {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const modes = a.modes!.split(",");
let queue: { client: SandboxQueueClient; stop: () => Promise<void> } | null = null;
if (modes.includes("queue")) {
  if (spawnSync("redis-server", ["--version"]).error) console.log("queue: skipped (no redis-server)");
  else {
    const { url, proc: redis } = await startRedis();
    const key = randomBytes(24).toString("hex");
    // `workers` queue workers of one slot each: the same slots as the local runs.
    const ws = await Promise.all(Array.from({ length: workers }, (_, i) => startSandboxWorker({ redisUrl: url, executor: new WarmExecutor(), cpus: 1, key, tasks, workerId: `bench-${i}` })));
    const client = await SandboxQueueClient.connect(url, { key });
    queue = { client, stop: async () => { await client.close(); await Promise.all(ws.map((w) => w.close())); redis.kill("SIGKILL"); } };
  }
}
const local = (ex: Executor) => (job: SandboxJob) => runSandbox({ ...job, executor: ex });
const evaluators: Record<string, ((job: SandboxJob) => Promise<ExecutionRecord>) | null> = {
  cold: local(cold), warm: local(warm), queue: queue ? (job) => queue!.client.submit({ task: job.task, code: job.code, limits: job.limits, runId: job.runId, nodeId: job.nodeId }) : null,
};
const rows: Row[] = [];
for (const [i, task] of tasks.entries()) {
  const order = modes.filter((m) => evaluators[m]);
  if (i % 2) order.reverse();
  for (const m of order) {
    const r = await search(m, task, evaluators[m]!);
    rows.push(r);
    console.log(`${task.meta.id.padEnd(34)} ${m.padEnd(5)} ${r.nodes} nodes in ${r.wallS.toFixed(1)} s: ${((60 * r.nodes) / r.wallS).toFixed(1)} nodes/min, ${((100 * r.programS) / (r.wallS * workers)).toFixed(0)}% in programs, champion ${r.valid?.toFixed(4) ?? "none"} (load ${la()})`);
  }
}
await queue?.stop();
await warm.close();
const perMode = Object.fromEntries(modes.filter((m) => evaluators[m]).map((m) => {
  const rs = rows.filter((r) => r.mode === m);
  const nodes = rs.reduce((s, r) => s + r.nodes, 0);
  const wallS = rs.reduce((s, r) => s + r.wallS, 0);
  return [m, { nodes, wallS, nodesPerMin: (60 * nodes) / wallS, programShare: rs.reduce((s, r) => s + r.programS, 0) / (wallS * workers) }];
}));
const ratio = (x: string, y: string) => (perMode[x] && perMode[y] ? perMode[x]!.nodesPerMin / perMode[y]!.nodesPerMin : null);
const sameChampions = (x: string, y: string) => tasks.filter((t) => {
  const [p, q] = [rows.find((r) => r.mode === x && r.task === t.meta.id), rows.find((r) => r.mode === y && r.task === t.meta.id)];
  return p && q && p.champion === q.champion && p.test === q.test;
}).length;
console.log("\n| mode | nodes | wall | nodes/min | share in programs |\n|---|---|---|---|---|");
for (const [m, s] of Object.entries(perMode)) console.log(`| ${m} | ${s.nodes} | ${s.wallS.toFixed(0)} s | ${s.nodesPerMin.toFixed(1)} | ${(100 * s.programShare).toFixed(0)}% |`);
const wc = ratio("warm", "cold");
const ql = ratio("queue", "warm");
if (wc !== null) console.log(`warm / cold nodes per minute: ${wc.toFixed(2)}× (goal ≥ 1.8×: ${wc >= 1.8 ? "met" : "not met"}); identical champions ${sameChampions("warm", "cold")} of ${tasks.length}`);
if (ql !== null) console.log(`queue / local (both warm, ${workers} slots): ${ql.toFixed(2)}× (goal ≥ 0.9×: ${ql >= 0.9 ? "met" : "not met"}); identical champions ${sameChampions("queue", "warm")} of ${tasks.length}`);
writeFileSync(a.out!, JSON.stringify({ date: new Date().toISOString(), load_after: la(), tasks: ids, steps, workers, seed, startup, startup_ratio: startupRatio, per_mode: perMode, rows }, null, 1));
console.log(`load average after ${la()}; written ${a.out}`);
process.exit(0);
