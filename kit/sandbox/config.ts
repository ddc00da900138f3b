import { z } from "zod";
import { MAX_TIMER_S, timerLimitMessage } from "../util/timer-limit.js";

/** How programs are run (CLI `openmle sandbox run`, and library callers that want a config). */
export const SandboxConfig = z.object({
  backend: z
    .enum(["local", "docker", "queue"])
    .default("local")
    .describe("Where programs run: local (bubblewrap), docker (dockerode) or queue (Redis workers)."),
  timeoutS: z
    .number()
    .positive()
    .max(MAX_TIMER_S, timerLimitMessage("s"))
    .default(600)
    .describe("Wall-clock limit per program in seconds; the whole process tree is killed past it."),
  memoryMb: z
    .number()
    .min(32)
    .default(4096)
    .describe("Memory cap per program in MiB (cgroup, Docker limit, or RLIMIT_AS)."),
  cpus: z
    .number()
    .int()
    .min(1)
    .default(2)
    .describe("CPU threads per program (thread-count environment variables; Docker NanoCpus)."),
  gpus: z.number().int().min(0).default(0).describe("GPUs per program (0 = CPU job)."),
  diskMb: z
    .number()
    .min(1)
    .default(8192)
    .describe("Disk quota of each job folder in MiB; past it the job is killed (disk_quota)."),
  outputCapBytes: z
    .number()
    .int()
    .min(1024)
    .default(65536)
    .describe("Bytes of stdout and of stderr kept per program (the tail plus a short head)."),
  python: z
    .string()
    .default("")
    .describe(
      "The sandbox's Python interpreter; empty: OPENMLE_PYTHON, else /usr/bin/python3. A virtualenv " +
        "outside /usr (e.g. /opt/openmle-py/bin/python, made with --system-site-packages or not) is " +
        "mounted read-only at the same path.",
    ),
  unsafe: z
    .boolean()
    .default(false)
    .describe("Local backend only: run WITHOUT isolation when bubblewrap is missing (warns on every run)."),
  dockerImage: z
    .string()
    .default("openmle-sandbox:latest")
    .describe("Image for the docker backend (recipe: kit/sandbox/docker/Dockerfile)."),
  redisUrl: z.string().default("redis://127.0.0.1:6379").describe("Redis URL of the queue backend."),
  jobsDir: z
    .string()
    .default("")
    .describe("Keep job folders here (one per execution); empty = temporary folders removed after each run."),
});
export type SandboxConfig = z.infer<typeof SandboxConfig>;
