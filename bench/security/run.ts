// Adversarial security suite (issue 10): every attempt of bench/security/attempts on the local
// backend, cold and warm (issue 28), and, where a Docker engine runs or can be started, on Docker. Prints one line per
// attempt and the totals: attempts, held, broke. Exit code 1 when anything broke.
// Usage: npx tsx bench/security/run.ts [--only <id-substring>] [--no-docker]
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadTask } from "../../kit/gym/index.js";
import { DockerExecutor, ensureDockerEngine, importHostPythonImage, LocalExecutor, WarmExecutor, type Executor } from "../../kit/sandbox/index.js";
import { startCanary, TINY_TASK_DIR } from "../../kit/sandbox/test-helpers.js";
import type { AttemptContext, Outcome } from "./attempt.js";
import { ATTEMPT_MODULES } from "./registry.js";

const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const noDocker = args.includes("--no-docker");

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function startRedis(): Promise<{ url: string; proc: ChildProcess } | null> {
  if (spawnSync("redis-server", ["--version"]).error) return null;
  const port = await freePort();
  const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 300));
  return { url: `redis://127.0.0.1:${port}`, proc };
}

const dir = mkdtempSync(join(tmpdir(), "bench-security-"));
const canary = await startCanary();
const redis = await startRedis();
const task = await loadTask(TINY_TASK_DIR);
const ctx: AttemptContext = { task, meta: task.meta, dir, canaryPort: canary.port, canaryConnections: canary.connections, redisUrl: redis?.url ?? null };

const warm = new WarmExecutor();
const executors: { name: string; ex: Executor }[] = [{ name: "local", ex: new LocalExecutor() }, { name: "warm", ex: warm }];
let stopEngine = () => undefined as void;
if (!noDocker) {
  const engine = await ensureDockerEngine();
  if (typeof engine === "string") console.log(`docker: skipped (${engine})`);
  else {
    stopEngine = engine.stop;
    const image = await importHostPythonImage(engine.docker);
    executors.push({ name: "docker", ex: new DockerExecutor({ image, hostReadOnly: ["/usr"] }) });
  }
}

console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}; backends: ${executors.map((e) => e.name).join(", ")}${redis ? ", queue (redis)" : ""}`);
const rows: { id: string; backend: string; source: string; held: boolean; detail: string; s: number }[] = [];
const t0 = performance.now();
for (const mod of ATTEMPT_MODULES) {
  for (const a of mod.attempts) {
    const host = mod.group.startsWith("queue") ? "queue" : mod.group.startsWith("warm-") ? "warm" : "host";
    const runs = a.perExecutor ? executors : [{ name: host, ex: null }];
    for (const { name, ex } of runs) {
      const id = `${mod.group}/${a.id}`;
      if (only && !id.includes(only)) continue;
      const t = performance.now();
      let out: Outcome;
      try {
        out = await a.run(ctx, ex);
      } catch (e) {
        // An attempt that crashes the harness did not show the defence holding: count it as broke.
        out = { held: false, detail: `attempt crashed: ${(e as Error).message.slice(0, 100)}` };
      }
      const s = (performance.now() - t) / 1000;
      rows.push({ id, backend: name, source: a.source, held: out.held, detail: out.detail, s });
      console.log(`${out.held ? "held " : "BROKE"}  ${id.padEnd(34)} ${name.padEnd(7)} ${s.toFixed(1).padStart(5)} s  ${out.detail}`);
    }
  }
}
const broke = rows.filter((r) => !r.held).length;
console.log(`\nattempts ${rows.length}   held ${rows.length - broke}   broke ${broke}   (${((performance.now() - t0) / 1000).toFixed(0)} s)`);

canary.close();
await warm.close();
redis?.proc.kill("SIGKILL");
stopEngine();
rmSync(dir, { recursive: true, force: true });
process.exit(broke ? 1 : 0);
