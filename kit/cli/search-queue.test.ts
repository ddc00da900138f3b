// Every stage on the Redis queue (issue 28): a real redis-server on 127.0.0.1 and two real `openmle worker`
// processes. An evolve run (via `openmle evolve --backend queue`) and an RL step (trainRL through the queue
// client) give the same records as the local backend for the same seed; a worker killed mid-job loses and
// duplicates nothing (the job runs once more on another worker, one record).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Queue, QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trainRL } from "../erl/index.js";
import { evolve } from "../evo/index.js";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { createGrammarPolicy } from "../policy/index.js";
import { CPU_QUEUE, openSandboxBackend, probeBwrap, type ExecutionRecord } from "../sandbox/index.js";
import { startRedis, startWorker, type WorkerProc } from "../sandbox/queue-test-helpers.js";
import { TINY_TASK_DIR } from "../sandbox/test-helpers.js";
import { openWorkspace, type Workspace } from "../store/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const KEY = "search-queue-test-key-".padEnd(64, "7");
const why = spawnSync("redis-server", ["--version"]).error ? "redis-server is not installed (apt-get install redis-server)" : probeBwrap();
if (why) console.warn(`SKIP search-queue tests: ${why}`);

/** Per node, what must not depend on where it ran: code hash, status, scores, error signature. */
const NODE_RECORDS = `SELECT n.step, n.operator, e.code_hash, n.status, n.valid_score, n.test_score, n.error_signature
  FROM nodes n JOIN executions e ON e.execution_id = n.execution_id WHERE n.run_id = $r ORDER BY n.step`;
const EVOLVE = { steps: 4, seed: 5, gen0Drafts: 2, perRunTimeoutS: 60, memoryMb: 2048 };
const RL = { steps: 1, group: 2, workers: 2, mode: "sync" as const, perRunTimeoutS: 60, memoryMb: 2048, seed: 4 };
const ROLLOUTS = `SELECT group_id, idx, code, status, valid_score, test_score, reward, advantage, hack_check
  FROM rl_rollouts ORDER BY group_id, idx`;

/** `openmle evolve … --json` as a child process; resolves with its exit code and output. */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, OPENMLE_QUEUE_KEY: KEY };
    const p: ChildProcess = spawn(process.execPath, ["--import", "tsx", "kit/cli/main.ts", ...args], { cwd: ROOT, env });
    let out = "";
    let err = "";
    p.stdout!.on("data", (b: Buffer) => (out += b.toString()));
    p.stderr!.on("data", (b: Buffer) => (err += b.toString()));
    p.on("close", (code) => resolve({ code, out, err }));
  });
}

describe.skipIf(!!why)("search stages on the Redis queue", () => {
  let redis: ChildProcess;
  let redisUrl: string;
  let task: TaskPackage;
  let dir: string;
  let local: Workspace;
  let workers: WorkerProc[] = [];
  const workerArgs = ["--task", TINY_TASK_DIR, "--cpus", "1", "--max-cpus", "2", "--lock-ms", "1500", "--stalled-ms", "500"];
  beforeAll(async () => {
    ({ url: redisUrl, proc: redis } = await startRedis());
    task = await loadTask(TINY_TASK_DIR);
    dir = mkdtempSync(join(tmpdir(), "search-queue-"));
    local = await openWorkspace(join(dir, "local"));
    workers = ["A", "B"].map((id) => startWorker(id, redisUrl, KEY, [...workerArgs, "--sandbox-start", "cold"]));
    await Promise.all(workers.map((w) => w.waitFor((e) => e.type === "ready", 90_000)));
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) w.proc.kill("SIGKILL");
    redis?.kill("SIGKILL");
    local?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A local evolve run of the test's settings and `seed`, as the CLI's local backend runs it. */
  async function localEvolve(runId: string, seed: number) {
    const sb = await openSandboxBackend({ backend: "local", workspace: local });
    await evolve({ task, policy: createGrammarPolicy(), workspace: local, runId, config: { ...EVOLVE, seed }, evaluate: sb.evaluate });
    return local.query(NODE_RECORDS, { r: runId });
  }

  it("openmle evolve --backend queue gives the local backend's records for the same seed", async () => {
    const want = await localEvolve("local-a", EVOLVE.seed);
    expect(want).toHaveLength(4);
    expect(want.some((n) => n.status === "success")).toBe(true);
    const wsDir = join(dir, "queue-a");
    const r = await cli(["evolve", "--task", TINY_TASK_DIR, "--steps", "4", "--seed", String(EVOLVE.seed), "--timeout", "60", "--config", writeConfig(dir), "--workspace", wsDir, "--backend", "queue", "--redis", redisUrl, "--json"]);
    expect(r.err).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    const runId = JSON.parse(r.out).run_id as string;
    const ws = await openWorkspace(wsDir);
    try {
      expect(await ws.query(NODE_RECORDS, { r: runId })).toEqual(want);
      // Written once: one row per idempotency key.
      const rows = await ws.query<{ n: number; keys: number }>("SELECT count(*)::INTEGER AS n, count(DISTINCT idempotency_key)::INTEGER AS keys FROM executions");
      expect(rows[0]!.n).toBe(rows[0]!.keys);
    } finally {
      ws.close();
    }
    // The jobs went to more than one worker.
    const ran = workers.filter((w) => w.events.some((e) => e.type === "job-completed"));
    expect(ran.length).toBeGreaterThan(1);
  }, 150_000);

  it("an RL step on the queue gives the local backend's rollouts, rewards, advantages and params", async () => {
    const localRl = await openWorkspace(join(dir, "rl-local"));
    const queueRl = await openWorkspace(join(dir, "rl-queue"));
    const sb = await openSandboxBackend({ backend: "queue", redisUrl, queueKey: { key: KEY } });
    try {
      const a = await trainRL({ workspace: localRl, tasks: [task], to: "rl", config: RL });
      const b = await trainRL({ workspace: queueRl, tasks: [task], to: "rl", config: RL, execute: sb.evaluate });
      const want = await localRl.query(ROLLOUTS);
      expect(want).toHaveLength(2);
      expect(await queueRl.query(ROLLOUTS)).toEqual(want);
      expect(b.params).toEqual(a.params);
      const { wallS: _a, ...stepA } = a.steps[0]!;
      const { wallS: _b, ...stepB } = b.steps[0]!;
      expect(stepB).toEqual(stepA);
    } finally {
      await sb.close();
      localRl.close();
      queueRl.close();
    }
  }, 120_000);

  it("a worker killed mid-job: the job runs once more on another worker, every node has its one record", async () => {
    // The first test's run with a program time limit of 59 s instead of 60: other idempotency keys, so every
    // program runs again on the queue, and the same records as the local run (no program comes near 59 s).
    const want = await local.query(NODE_RECORDS, { r: "local-a" });
    const ws = await openWorkspace(join(dir, "queue-c"));
    const events = new QueueEvents(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    const queue = new Queue(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    await events.waitUntilReady();
    const stalled: string[] = [];
    events.on("stalled", ({ jobId }) => stalled.push(jobId));
    const sb = await openSandboxBackend({ backend: "queue", redisUrl, queueKey: { key: KEY }, workspace: ws });
    const records: ExecutionRecord[] = [];
    // 1. the first worker to take a job of this run is killed while the job runs
    const before = new Map(workers.map((w) => [w.id, w.events.length]));
    const victim = Promise.race(workers.map((w) => w.waitFor((e) => e.type === "job-active" && w.events.indexOf(e) >= before.get(w.id)!).then((e) => ({ w, jobId: String(e.jobId) }))));
    void victim.then(({ w }) => setTimeout(() => w.proc.kill("SIGKILL"), 200));
    try {
      await evolve({ task, policy: createGrammarPolicy(), workspace: ws, runId: "queue-c", config: { ...EVOLVE, perRunTimeoutS: 59 }, evaluate: (job) => sb.evaluate(job).then((r) => (records.push(r), r)) });
      const { w: killed, jobId } = await victim;
      // 2. the killed worker's job stalled once and completed on another worker
      expect(stalled).toEqual([jobId]);
      const job = await queue.getJob(jobId);
      expect(job!.stalledCounter).toBe(1);
      const rec = records.find((r) => r.idempotencyKey === jobId)!;
      expect(rec.worker).not.toBe(killed.id);
      // 3. nothing lost or duplicated: the local run's records, one stored row per key
      expect(await ws.query(NODE_RECORDS, { r: "queue-c" })).toEqual(want);
      const rows = await ws.query<{ n: number; keys: number }>("SELECT count(*)::INTEGER AS n, count(DISTINCT idempotency_key)::INTEGER AS keys FROM executions");
      expect(rows[0]!.n).toBe(rows[0]!.keys);
      expect(rows[0]!.n).toBe(new Set(want.map((n) => n.code_hash)).size);
    } finally {
      await sb.close();
      await events.close();
      await queue.close();
      ws.close();
    }
  }, 150_000);
});

/** The evolve settings the CLI run shares with the local one, from a --config file (memory has no flag). */
function writeConfig(dir: string): string {
  const file = join(dir, "evolve.json");
  writeFileSync(file, JSON.stringify({ gen0Drafts: EVOLVE.gen0Drafts, memoryMb: EVOLVE.memoryMb }));
  return file;
}
