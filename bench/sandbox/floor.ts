// Sandbox overhead against its floor (issues 17 and 28): `runSandbox` on a trivial program against the
// isolation alone — the same cgroup placement and limits, `/bin/sh` → `setpriv` → bubblewrap with the
// executor's own arguments (floor-run.ts), so the floor follows any change to them — alternating in one
// run; then the kit's own steps (key, job folder, chown, quota watch, cgroup sweep and stats,
// classification, artifact listing, clean-up) timed one by one.
// Usage: npm run build && node dist/bench/sandbox/floor.js [reps=30]
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
} from "../../kit/sandbox/index.js";
import { giveTree, JobCgroup, reachableBy, watchDiskQuota } from "../../kit/jail/index.js";
import { listArtifacts } from "../../kit/sandbox/artifacts.js";
import { MAX_JOB_FILES } from "../../kit/sandbox/executor.js";
import { TINY_TASK_DIR } from "../../kit/sandbox/test-helpers.js";
import { isolationFloor } from "./floor-run.js";

const reps = Number(process.argv[2] ?? 30);
const GOAL = 1.25;
const TRIVIAL = 'print("Final Validation Score: 0")\n';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

const task = await loadTask(TINY_TASK_DIR);
const limits = resolveLimits({ timeoutS: 60, memoryMb: 1024, cpus: 1 });
const executor = new LocalExecutor();
const floor = isolationFloor(task, limits, TRIVIAL);

async function kit(i: number): Promise<number> {
  const t0 = performance.now();
  const r = await runSandbox({ task, code: `${TRIVIAL}# ${i}\n`, limits, executor });
  const t = performance.now() - t0;
  if (r.status !== "missing_submission") throw new Error(`unexpected ${r.status}: ${r.stderrTail}`);
  return t;
}

/** The kit's own steps around the program, timed one by one with the functions runSandbox and the executor call. */
async function kitSteps(n: number): Promise<Record<string, number>> {
  const names = [
    "key",
    "folder + code",
    "chown",
    "reachable",
    "cgroup create",
    "quota watch",
    "cgroup stats",
    "cgroup remove",
    "classify",
    "artifacts",
    "clean-up",
  ];
  const steps: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  const time = async (name: string, fn: () => unknown) => {
    const t = performance.now();
    await fn();
    steps[name]!.push(performance.now() - t);
  };
  const root = join(tmpdir(), "openmle-jobs");
  const user = floor.user;
  for (let i = 0; i < n; i++) {
    const code = `${TRIVIAL}# ${i}\n`;
    await time("key", () =>
      idempotencyKey({ taskId: task.meta.id, taskHash: packageHash(task.dir), code, limits, backend: "local" }),
    );
    let jobDir = "";
    await time("folder + code", () => {
      mkdirSync(root, { recursive: true });
      jobDir = mkdtempSync(join(root, "job-"));
      mkdirSync(join(jobDir, "code"), { recursive: true });
      writeFileSync(join(jobDir, "code", "main.py"), code);
    });
    await time("chown", () => user && giveTree(jobDir, user));
    await time("reachable", () => user && [task.publicDir, jobDir].every((d) => reachableBy(user, d)));
    let cg: JobCgroup | null = null;
    await time("cgroup create", () => (cg = JobCgroup.create(`${process.pid}-${randomUUID()}`, limits.memoryMb)));
    const c = cg as JobCgroup | null;
    await time("quota watch", async () => {
      const diskBytes = Math.round(limits.diskMb * 1024 * 1024);
      const q = watchDiskQuota([jobDir], { maxBytes: diskBytes, maxFiles: MAX_JOB_FILES }, () => {}, {
        pids: () => c?.pids() ?? [],
      });
      await q.stop();
    });
    await time("cgroup stats", () => c?.stats());
    await time("cgroup remove", () => c?.remove());
    await time("classify", () =>
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
    await time("artifacts", () => listArtifacts(jobDir));
    await time("clean-up", () => rmSync(jobDir, { recursive: true, force: true }));
  }
  return Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, median(v)]));
}

console.log(
  `machine: ${cpus().length} cores, load average ${load()}; cgroup ` +
    `${JobCgroup.available() ? "available" : "unavailable"}; sandbox user ${floor.user?.name ?? "none (not root)"}`,
);
console.log(`floor: ${floor.chained}`);
await kit(-1); // warm-up
await floor.run();
const floorT: number[] = [];
const sweepT: number[] = [];
const kitT: number[] = [];
const floorRun = async () => {
  const r = await floor.run();
  floorT.push(r.ms);
  sweepT.push(r.sweepMs);
};
for (let i = 0; i < reps; i++) {
  // Alternate which goes first so neither always follows the other.
  if (i % 2) {
    kitT.push(await kit(i));
    await floorRun();
  } else {
    await floorRun();
    kitT.push(await kit(i));
  }
}
const ratio = median(kitT) / median(floorT);
console.log(
  `floor (same chain, cgroup and limits) ${ms(median(floorT))}   runSandbox ${ms(median(kitT))}   ` +
    `median of ${reps}, alternating`,
);
console.log(
  `ratio runSandbox / floor  ${ratio.toFixed(2)}×  (goal ≤ ${GOAL}×: ${ratio <= GOAL ? "met" : "not met"}); ` +
    `gap ${ms(median(kitT) - median(floorT))}`,
);
const steps = await kitSteps(reps);
steps["kill sweep"] = median(sweepT);
const total = Object.values(steps).reduce((s, x) => s + x, 0);
console.log(
  `kit's own steps (median each, ms): ${Object.entries(steps)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(", ")} → ${ms(total)} (goal < 3 ms)`,
);
console.log(`kill sweep after exit: max ${ms(Math.max(...sweepT))}`);
console.log(`load average after: ${load()}`);
rmSync(floor.dir, { recursive: true, force: true });
