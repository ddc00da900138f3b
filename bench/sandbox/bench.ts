// Sandbox benchmark (issue 4): overhead per job against bare `/usr/bin/python3 main.py` for a
// trivial program (local and Docker), and jobs per minute for parallel CPU jobs on 2 cores.
// Usage: npx tsx bench/sandbox/bench.ts [reps=20] [jobs=20]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadTask } from "../../kit/gym/index.js";
import { DockerExecutor, ensureDockerEngine, importHostPythonImage, LocalExecutor, runSandbox, SandboxPool, type Executor } from "../../kit/sandbox/index.js";
import { TINY_TASK_DIR } from "../../kit/sandbox/test-helpers.js";

const reps = Number(process.argv[2] ?? 20);
const nJobs = Number(process.argv[3] ?? 20);
const TRIVIAL = 'print("Final Validation Score: 0")\n';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

function bare(dir: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const c = spawn("/usr/bin/python3", ["main.py"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    c.stdout.resume();
    c.stderr.resume();
    c.on("error", reject);
    c.on("close", () => resolve(performance.now() - t0));
  });
}

const task = await loadTask(TINY_TASK_DIR);
const dir = mkdtempSync(join(tmpdir(), "bench-sbx-"));
writeFileSync(join(dir, "main.py"), TRIVIAL);
const limits = { timeoutS: 60, memoryMb: 1024, cpus: 1 };

async function overhead(name: string, executor: Executor, n: number): Promise<void> {
  await runSandbox({ task, code: TRIVIAL, limits, executor }); // warm-up
  const bareT: number[] = [];
  const sbxT: number[] = [];
  for (let i = 0; i < n; i++) {
    bareT.push(await bare(dir));
    const t0 = performance.now();
    const r = await runSandbox({ task, code: TRIVIAL + `# ${i}\n`, limits, executor });
    sbxT.push(performance.now() - t0);
    if (r.status !== "missing_submission") throw new Error(`unexpected ${r.status}: ${r.stderrTail}`);
  }
  console.log(`${name.padEnd(7)} bare python3 ${ms(median(bareT))}   runSandbox ${ms(median(sbxT))}   overhead ${ms(median(sbxT) - median(bareT))} (median of ${n})`);
}

console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} (figures scale with load)`);
// 1. Overhead per job.
await overhead("local", new LocalExecutor(), reps);
const engine = await ensureDockerEngine();
if (typeof engine === "string") console.log(`docker  skipped: ${engine}`);
else {
  const image = await importHostPythonImage(engine.docker);
  await overhead("docker", new DockerExecutor({ image, hostReadOnly: ["/usr"] }), Math.max(3, Math.round(reps / 4)));
  engine.stop();
}

// 2. Throughput: CPU-bound jobs (~0.5 s of pure Python each) through a 2-slot pool.
const cpuJob = (i: number) => `import time\nt = time.process_time()\nx = 0\nwhile time.process_time() - t < 0.5:\n    x += 1\nprint("Final Validation Score: 0")  # ${i}\n`;
const pool = new SandboxPool({ cpuSlots: 2 });
const t0 = performance.now();
const recs = await Promise.all(Array.from({ length: nJobs }, (_, i) => pool.submit({ task, code: cpuJob(i), limits })));
const secs = (performance.now() - t0) / 1000;
const cpu = recs.reduce((s, r) => s + r.cpuS, 0);
console.log(`throughput: ${nJobs} CPU jobs (~0.5 s CPU each) on 2 slots in ${secs.toFixed(2)} s → ${((nJobs / secs) * 60).toFixed(0)} jobs/min (ideal on 2 cores: ${((2 / (cpu / nJobs)) * 60).toFixed(0)} jobs/min at the measured ${(cpu / nJobs).toFixed(2)} s CPU per job)`);
// The same jobs as bare `python3 main.py`, two at a time: what the machine gives without the sandbox.
const bareDir = mkdtempSync(join(tmpdir(), "bench-sbx-bare-"));
writeFileSync(join(bareDir, "main.py"), cpuJob(0));
const t1 = performance.now();
let next = 0;
await Promise.all([0, 1].map(async () => {
  while (next++ < nJobs) await bare(bareDir);
}));
const bareSecs = (performance.now() - t1) / 1000;
console.log(`bare python3, 2 at a time: ${nJobs} jobs in ${bareSecs.toFixed(2)} s → ${((nJobs / bareSecs) * 60).toFixed(0)} jobs/min (sandbox reaches ${((100 * bareSecs) / secs).toFixed(0)}% of it)`);
rmSync(bareDir, { recursive: true, force: true });
console.log(`load average after: ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
rmSync(dir, { recursive: true, force: true });
