// Sandbox overhead against its floor (issue 17): `runSandbox` on a trivial program against a bare
// `bwrap` invocation with the same namespaces, mounts and interpreter — the arguments come from the
// executor's own builder (kit/sandbox/bwrap-args.ts), so the floor follows any change to them —
// alternating in one run; then the kit's own steps (job folder, cgroup, classification, artifact
// listing, clean-up) timed one by one.
// Usage: npm run build && node dist/bench/sandbox/floor.js [reps=30]
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadTask, packageHash } from "../../kit/gym/index.js";
import {
  LocalExecutor,
  runSandbox,
  classifyExecution,
  idempotencyKey,
  resolveLimits,
  sandboxEnv,
  SANDBOX_DATA_DIR,
  SANDBOX_WORKDIR,
} from "../../kit/sandbox/index.js";
import { bwrapArgs } from "../../kit/sandbox/bwrap-args.js";
import { JobCgroup } from "../../kit/jail/index.js";
import { listArtifacts } from "../../kit/sandbox/artifacts.js";
import { PYTHON } from "../../kit/sandbox/local-executor.js";
import { TINY_TASK_DIR } from "../../kit/sandbox/test-helpers.js";

const reps = Number(process.argv[2] ?? 30);
const GOAL = 1.25;
const TRIVIAL = 'print("Final Validation Score: 0")\n';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

const task = await loadTask(TINY_TASK_DIR);
const limits = resolveLimits({ timeoutS: 60, memoryMb: 1024, cpus: 1 });
const executor = new LocalExecutor();

/** The floor: bwrap with the executor's arguments, spawned directly (no cgroup, no kit steps). */
const floorDir = mkdtempSync(join(tmpdir(), "bench-sbx-floor-"));
mkdirSync(join(floorDir, "code"));
writeFileSync(join(floorDir, "code", "main.py"), TRIVIAL);
const floorArgs = bwrapArgs({
  jobDir: floorDir,
  publicDir: task.publicDir,
  env: sandboxEnv(limits, SANDBOX_DATA_DIR, SANDBOX_WORKDIR),
  command: [PYTHON, "code/main.py"],
});
function bareBwrap(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const c = spawn("bwrap", floorArgs, {
      cwd: floorDir,
      env: { PATH: "/usr/bin:/bin" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    c.stdout.on("data", (d: Buffer) => (out += d.toString()));
    c.stderr.resume();
    c.on("error", reject);
    c.on("close", (code) =>
      code === 0 && out.includes("Final Validation Score")
        ? resolve(performance.now() - t0)
        : reject(new Error(`bare bwrap exited ${code}`)),
    );
  });
}
async function kit(i: number): Promise<number> {
  const t0 = performance.now();
  const r = await runSandbox({ task, code: `${TRIVIAL}# ${i}\n`, limits, executor });
  const t = performance.now() - t0;
  if (r.status !== "missing_submission") throw new Error(`unexpected ${r.status}: ${r.stderrTail}`);
  return t;
}

/** The kit's own steps around the program, timed one by one (median over `reps`). */
function kitSteps(n: number): Record<string, number> {
  const steps: Record<string, number[]> = {
    "idempotency key": [],
    "job folder + code": [],
    "cgroup create": [],
    "cgroup stats": [],
    "cgroup remove": [],
    classify: [],
    artifacts: [],
    "clean-up": [],
  };
  const time = (name: string, fn: () => void) => {
    const t = performance.now();
    fn();
    steps[name]!.push(performance.now() - t);
  };
  const root = join(tmpdir(), "openmle-jobs");
  for (let i = 0; i < n; i++) {
    time("idempotency key", () =>
      idempotencyKey({
        taskId: task.meta.id,
        taskHash: packageHash(task.dir),
        code: `${TRIVIAL}# ${i}\n`,
        limits,
        backend: "local",
      }),
    );
    let jobDir = "";
    time("job folder + code", () => {
      mkdirSync(root, { recursive: true });
      jobDir = mkdtempSync(join(root, "job-"));
      mkdirSync(join(jobDir, "code"), { recursive: true });
      writeFileSync(join(jobDir, "code", "main.py"), TRIVIAL);
    });
    let cg: JobCgroup | null = null;
    time("cgroup create", () => (cg = JobCgroup.create(randomUUID(), limits.memoryMb)));
    time("cgroup stats", () => (cg as JobCgroup | null)?.stats());
    time("cgroup remove", () => (cg as JobCgroup | null)?.remove());
    time("classify", () =>
      classifyExecution({
        codeMissing: false,
        outcome: {
          exitCode: 0,
          signal: null,
          timedOut: false,
          oomKilled: false,
          sandboxError: null,
          stdout: "Final Validation Score: 0\n",
          stderr: "",
        },
        submissionFound: false,
      }),
    );
    time("artifacts", () => listArtifacts(jobDir));
    time("clean-up", () => rmSync(jobDir, { recursive: true, force: true }));
  }
  return Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, median(v)]));
}

console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}; cgroup ${JobCgroup.available() ? "available" : "unavailable"}`,
);
await kit(-1); // warm-up
await bareBwrap();
const bareT: number[] = [];
const kitT: number[] = [];
for (let i = 0; i < reps; i++) {
  // Alternate which goes first so neither always follows the other.
  if (i % 2) {
    kitT.push(await kit(i));
    bareT.push(await bareBwrap());
  } else {
    bareT.push(await bareBwrap());
    kitT.push(await kit(i));
  }
}
const ratio = median(kitT) / median(bareT);
console.log(
  `bare bwrap (executor's arguments)  ${ms(median(bareT))}   runSandbox ${ms(median(kitT))}   median of ${reps}, alternating`,
);
console.log(
  `ratio runSandbox / bare bwrap  ${ratio.toFixed(2)}×  (goal ≤ ${GOAL}×: ${ratio <= GOAL ? "met" : "not met"})`,
);
const steps = kitSteps(reps);
const total = Object.values(steps).reduce((s, x) => s + x, 0);
console.log(
  `kit's own steps (median each): ${Object.entries(steps)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(", ")} → ${ms(total)} (goal < 3 ms)`,
);
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
rmSync(floorDir, { recursive: true, force: true });
