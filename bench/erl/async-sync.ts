// Benchmark (a): asynchronous vs synchronous rollout groups, time per training step.
// Real sandbox jobs (bubblewrap) whose run time is drawn from a lognormal: each program the grammar
// policy writes is replaced by a sleep program (duration from a hash of its group and index, so both
// modes see the same distribution) that then writes a random-label submission. Same number of
// consumed groups in both modes; `slots` concurrent sandbox jobs.
//   npx tsx bench/erl/async-sync.ts [--task penguins] [--steps 6] [--group 8] [--batch 2] [--slots 16] [--median 2] [--sigma 1] [--out bench/erl/async-sync.json]
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trainRL } from "../../kit/erl/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { SandboxPool } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const taskId = arg("task", "penguins");
const steps = Number(arg("steps", "6"));
const group = Number(arg("group", "8"));
const batch = Number(arg("batch", "2"));
const slots = Number(arg("slots", "16"));
const median = Number(arg("median", "2"));
const sigma = Number(arg("sigma", "1"));
const out = arg("out", "bench/erl/async-sync.json");

/** Lognormal seconds from a hash of the job's node id (Box–Muller on two hash-derived uniforms). */
function duration(key: string): number {
  const h = createHash("sha256").update(key).digest();
  const u1 = (h.readUInt32BE(0) + 1) / 2 ** 32;
  const u2 = h.readUInt32BE(4) / 2 ** 32;
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  return median * Math.exp(sigma * z);
}

function sleepProgram(seconds: number, labels: readonly (string | number)[], sampleFile: string): string {
  return `import csv, os, random, time
time.sleep(${seconds.toFixed(3)})
d = os.environ.get("DATA_DIR", "/data")
rows = list(csv.reader(open(os.path.join(d, ${JSON.stringify(sampleFile)}))))
labels = ${JSON.stringify(labels.map(String))}
with open("submission.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(rows[0])
    for r in rows[1:]:
        w.writerow([r[0], random.choice(labels)])
print("Final Validation Score: 0.5")
`;
}

async function main() {
  const task = await resolveTask(taskId);
  const labels = task.meta.classes ?? [0, 1];
  const results: Record<string, unknown>[] = [];
  for (const mode of ["sync", "async"] as const) {
    const dir = mkdtempSync(join(tmpdir(), `bench-rl-${mode}-`));
    const ws = await openWorkspace(join(dir, "ws"));
    const pool = new SandboxPool({ cpuSlots: slots, jobsDir: join(dir, "jobs") });
    let jobs = 0;
    const t0 = performance.now();
    const r = await trainRL({
      workspace: ws, tasks: [task], to: `bench-${mode}`,
      config: { mode, steps, group, groupsPerStep: batch, workers: slots, seed: 1, perRunTimeoutS: 300, memoryMb: 1024 },
      execute: (job) => { jobs++; return pool.submit({ ...job, code: sleepProgram(duration(job.nodeId!), labels, task.meta.files.sampleSubmission), limits: { ...job.limits, cpus: 1 } }); },
      onEvent: (e) => { if (e.type === "step") process.stderr.write(`${mode} step ${e.metrics.step}: ${e.metrics.wallS.toFixed(1)} s\n`); },
    });
    const wall = (performance.now() - t0) / 1000;
    const timeline = await ws.query("SELECT group_id, status, consumed_step, policy_version, started_s, ended_s FROM rl_groups ORDER BY started_s");
    const stepTimes = r.steps.map((s) => s.wallS);
    results.push({ mode, steps: r.steps.length, consumedGroups: r.steps.reduce((s, x) => s + x.groups, 0), dropped: r.steps.reduce((s, x) => s + x.dropped, 0), jobs, wallS: wall, meanStepS: stepTimes.reduce((a, b) => a + b, 0) / stepTimes.length, stepTimes, timeline });
    ws.close();
  }
  const [sync, async] = results as { meanStepS: number }[];
  const summary = { task: taskId, steps, group, batch, slots, median, sigma, speedup: sync!.meanStepS / async!.meanStepS, results };
  writeFileSync(out, `${JSON.stringify(summary, null, 1)}\n`);
  console.log("| mode | steps | consumed groups | dropped (lag > 1) | programs run | mean s / step | total s |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of results as { mode: string; steps: number; consumedGroups: number; dropped: number; jobs: number; meanStepS: number; wallS: number }[]) {
    console.log(`| ${r.mode} | ${r.steps} | ${r.consumedGroups} | ${r.dropped} | ${r.jobs} | ${r.meanStepS.toFixed(1)} | ${r.wallS.toFixed(0)} |`);
  }
  console.log(`\nasync speed-up per step: ${summary.speedup.toFixed(2)}×`);
}

await main();
