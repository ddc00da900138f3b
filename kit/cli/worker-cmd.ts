import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { resolveTask } from "../gym/index.js";
import {
  DEFAULT_LIMITS,
  DEFAULT_MAX_JOB_BYTES,
  resolveQueueKey,
  SandboxError,
  startSandboxWorker,
  type WorkerEvent,
} from "../sandbox/index.js";
import { MAX_TIMER_MS, MAX_TIMER_S } from "../util/index.js";
import { intFlag, numberFlag } from "./numeric-flag.js";
import { jsonText, runCli, UsageError } from "./run-cli.js";
import {
  checkBackend,
  executorFromFlags,
  executorOptions,
  queueKeyFileOption,
  SANDBOX_FLAG_MAX,
  sandboxStartFromFlag,
  sandboxStartOption,
  type ExecutorFlags,
} from "./sandbox-flags.js";

interface WorkerFlags extends ExecutorFlags {
  redis: string;
  task: string[];
  cpus: string;
  gpus: string;
  lockMs: string;
  stalledMs: string;
  id?: string;
  queueKeyFile?: string;
  maxTimeout: string;
  maxMemory: string;
  maxDisk: string;
  maxCpus?: string;
  maxJobKib: string;
}

/** The largest --max-job-kib: 256 MiB (a worker reads a job whole, so this is memory per job it takes). */
const MAX_JOB_KIB = 256 * 1024;

/** `openmle worker`: take sandbox jobs from Redis until SIGINT/SIGTERM. Prints one JSON line per event. */
export function registerWorker(program: Command): void {
  const flags = executorOptions("worker");
  program
    .command("worker")
    .description("Run sandbox jobs from a Redis queue (BullMQ) on this machine")
    .requiredOption("--redis <url>", "Redis URL, e.g. redis://127.0.0.1:6379")
    .option(
      "--task <dirOrId>",
      "a task this worker runs (folder or built-in id; repeat for more); jobs for other tasks are refused",
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .addOption(flags.backend)
    .option("--cpus <n>", "concurrent CPU job slots", "2")
    .option("--gpus <n>", "GPU slots (also takes GPU jobs when > 0)", "0")
    .addOption(flags.dockerImage)
    .addOption(flags.unsafe)
    .addOption(sandboxStartOption())
    .option("--lock-ms <ms>", "job lock duration; a dead worker's job is retried after it", "30000")
    .option("--stalled-ms <ms>", "how often to look for stalled jobs", "15000")
    .option("--id <id>", "worker id (default host-pid)")
    .addOption(queueKeyFileOption())
    .option("--max-timeout <s>", "refuse jobs asking for a longer wall-clock limit", String(DEFAULT_LIMITS.timeoutS))
    .option("--max-memory <MiB>", "refuse jobs asking for more memory", String(DEFAULT_LIMITS.memoryMb))
    .option("--max-disk <MiB>", "refuse jobs asking for a larger job-folder quota", String(DEFAULT_LIMITS.diskMb))
    .option("--max-cpus <n>", "refuse jobs asking for more CPU threads (default: --cpus)")
    .option(
      "--max-job-kib <KiB>",
      "refuse, unread, jobs whose data (program and limits) is larger",
      String(DEFAULT_MAX_JOB_BYTES / 1024),
    )
    .action(async (o: WorkerFlags) => {
      const int = (name: string, v: string, min: number, max: number) => intFlag(name, v, { min, max });
      const cpus = int("cpus", o.cpus, 1, SANDBOX_FLAG_MAX.cpus);
      const caps = {
        timeoutS: numberFlag("max-timeout", o.maxTimeout, { min: 0.1, max: MAX_TIMER_S }),
        memoryMb: numberFlag("max-memory", o.maxMemory, { min: 32, max: SANDBOX_FLAG_MAX.mib }),
        diskMb: numberFlag("max-disk", o.maxDisk, { min: 1, max: SANDBOX_FLAG_MAX.mib }),
        cpus: o.maxCpus === undefined ? cpus : int("max-cpus", o.maxCpus, 1, SANDBOX_FLAG_MAX.cpus),
      };
      // Every flag is checked before the key and the tasks: a usage error comes first.
      const gpus = int("gpus", o.gpus, 0, SANDBOX_FLAG_MAX.gpus);
      const lockDurationMs = int("lock-ms", o.lockMs, 100, MAX_TIMER_MS);
      const stalledIntervalMs = int("stalled-ms", o.stalledMs, 100, MAX_TIMER_MS);
      const maxJobBytes = 1024 * int("max-job-kib", o.maxJobKib, 1, MAX_JOB_KIB);
      checkBackend("worker", o.backend);
      sandboxStartFromFlag(o.sandboxStart);
      const log = (e: WorkerEvent | { type: string; [k: string]: unknown }) => process.stdout.write(`${jsonText(e)}\n`);
      if (o.task.length === 0)
        throw new UsageError(
          "--task is required: name each task this worker may run (a folder or a built-in id; repeat --task for more).",
        );
      const keySource = o.queueKeyFile ? { keyFile: o.queueKeyFile } : {};
      resolveQueueKey(keySource); // no key: refuse before loading any task
      const tasks = await Promise.all(o.task.map((t) => resolveTask(t)));
      const executor = executorFromFlags(o, (message) => log({ type: "warning", message }));
      const worker = await startSandboxWorker({
        redisUrl: o.redis,
        executor,
        cpus,
        caps,
        ...keySource,
        gpus,
        tasks,
        workerId: o.id,
        lockDurationMs,
        stalledIntervalMs,
        maxJobBytes,
        onEvent: log,
      });
      // The first SIGINT/SIGTERM lets running jobs finish (while Redis answers); a second one, or Redis gone,
      // closes at once: BullMQ alone would wait for Redis forever and the worker would have to be killed.
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        process.once("SIGINT", () => resolve("SIGINT"));
        process.once("SIGTERM", () => resolve("SIGTERM"));
      });
      const again = () => void worker.close({ force: true });
      process.on("SIGINT", again).on("SIGTERM", again);
      if ((await worker.close()) === "forced")
        throw new SandboxError(
          `worker ${worker.workerId} stopped on ${signal} without waiting for its running jobs (Redis unreachable, ` +
            `or a second signal): their locks expire and another worker runs them again`,
        );
    });
}

// Run directly (`node --import tsx kit/cli/worker-cmd.ts worker --redis ...`) without the rest of the CLI.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const program = new Command().name("openmle");
  registerWorker(program);
  await runCli(program, process.argv);
}
