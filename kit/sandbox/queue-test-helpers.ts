// Shared by the queue tests: a real redis-server on 127.0.0.1 at a free port, and real `openmle worker`
// processes (kit/cli/worker-cmd.ts run directly) whose JSON event lines the test can wait for.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** `openmle worker` without the rest of the CLI. */
export const WORKER_ENTRY = join(ROOT, "kit", "cli", "worker-cmd.ts");

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** redis-server on 127.0.0.1 (no persistence); resolves once it answers on its port. */
export async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("redis-server did not start in 10 s")), 10_000);
    proc.stdout!.on("data", (b: Buffer) => {
      if (b.toString().includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: `redis://127.0.0.1:${port}`, proc };
}

export interface WorkerProc {
  readonly id: string;
  readonly proc: ChildProcess;
  readonly events: Record<string, unknown>[];
  /** The first event (seen or to come) matching `pred`. */
  waitFor(pred: (e: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  stderr(): string;
}

/** An `openmle worker` process with `args` after `--redis URL --id ID`, the queue key in its environment. */
export function startWorker(id: string, redisUrl: string, key: string, args: readonly string[]): WorkerProc {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENMLE_QUEUE_KEY: key };
  const proc = spawn(
    process.execPath,
    ["--import", "tsx", WORKER_ENTRY, "worker", "--redis", redisUrl, "--id", id, ...args],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const events: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let buf = "";
  proc.stdout!.on("data", (b: Buffer) => {
    buf += b.toString();
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        events.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        /* not an event */
      }
      for (const w of [...waiters]) w();
    }
  });
  let err = "";
  proc.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  const waitFor = (pred: (e: Record<string, unknown>) => boolean, timeoutMs = 60_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`worker ${id}: no matching event in ${timeoutMs} ms; stderr: ${err.slice(-1000)}`));
      }, timeoutMs);
      const check = () => {
        const hit = events.find(pred);
        if (!hit) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(hit);
      };
      waiters.add(check);
      check();
    });
  return { id, proc, events, waitFor, stderr: () => err };
}
