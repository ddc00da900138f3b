import { existsSync, readFileSync } from "node:fs";
import type { Command } from "commander";
import { resolveTask } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { createExecutor, runSandbox, SandboxQueueClient, type ExecutionRecord, type SandboxLimits } from "../sandbox/index.js";
import { MAX_TIMER_S } from "../util/index.js";
import { output, UsageError } from "./run-cli.js";

interface RunOpts {
  task: string; code: string; backend: string; timeout: string; memory: string; cpus: string; gpus: string; disk: string;
  redis: string; workspace?: string; unsafe?: boolean; python?: string; dockerImage: string; keep?: string; json?: boolean;
}

/** `openmle sandbox run`: one program against one task; prints its execution record. */
export function registerSandbox(program: Command): void {
  const sb = program.command("sandbox").description("Run programs against tasks in the sandbox");
  sb.command("run")
    .description("Run code/main.py against a task and print the execution record")
    .requiredOption("--task <dirOrId>", "task package folder or built-in task id")
    .requiredOption("--code <file>", "the program (a Python file)")
    .option("--backend <name>", "local | docker | queue", "local")
    .option("--timeout <s>", "wall-clock limit in seconds", "600")
    .option("--memory <MB>", "memory cap in MiB", "4096")
    .option("--cpus <n>", "CPU threads", "2")
    .option("--gpus <n>", "GPUs", "0")
    .option("--disk <MB>", "disk quota of the job folder in MiB", "8192")
    .option("--redis <url>", "Redis URL for --backend queue", "redis://127.0.0.1:6379")
    .option("--workspace <dir>", "store the record in this workspace (and reuse a stored one)")
    .option("--docker-image <tag>", "image for --backend docker", "openmle-sandbox:latest")
    .option("--keep <dir>", "keep the job folder under this folder")
    .option("--unsafe", "local backend without bubblewrap: NO isolation (warns)")
    .option("--python <path>", "local backend: the interpreter (default: OPENMLE_PYTHON, else /usr/bin/python3); a virtualenv outside /usr is mounted read-only")
    .option("--json", "print the record as JSON")
    .action(async (o: RunOpts) => {
      if (!existsSync(o.code)) throw new UsageError(`--code ${o.code} does not exist. Pass the path of a Python file.`);
      const num = (name: string, v: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
        const n = Number(v);
        if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} ${v} is invalid: use a number from ${min} to ${max}${max === MAX_TIMER_S ? " (Node timers cannot wait longer)" : ""}.`);
        return n;
      };
      const limits: SandboxLimits = { timeoutS: num("timeout", o.timeout, 0.1, MAX_TIMER_S), memoryMb: num("memory", o.memory, 32), cpus: num("cpus", o.cpus, 1), gpus: num("gpus", o.gpus, 0), diskMb: num("disk", o.disk, 1) };
      const code = readFileSync(o.code, "utf8");
      const task = await resolveTask(o.task);
      const warn = (m: string) => process.stderr.write(`openmle: warning: ${m}\n`);
      let ws: Workspace | undefined;
      try {
        ws = o.workspace ? await openWorkspace(o.workspace) : undefined;
        let record: ExecutionRecord;
        if (o.backend === "queue") {
          const client = await SandboxQueueClient.connect(o.redis, { workspace: ws });
          try {
            record = await client.submit({ task, code, limits });
          } finally {
            await client.close();
          }
        } else {
          if (!["local", "docker"].includes(o.backend)) throw new UsageError(`--backend ${o.backend} is invalid: use local, docker or queue.`);
          const executor = createExecutor(o.backend, { unsafe: o.unsafe, python: o.python, dockerImage: o.dockerImage, onWarning: warn });
          record = await runSandbox({ task, code, limits, executor, workspace: ws, jobsDir: o.keep });
        }
        output(!!o.json, record, () => describeRecord(record));
      } finally {
        ws?.close();
      }
    });
}

function describeRecord(r: ExecutionRecord): string {
  const lines = [
    `status      ${r.status}${r.errorSignature ? ` (${r.errorSignature})` : ""}`,
    `task        ${r.taskId}   backend ${r.backend}   execution ${r.executionId}`,
    `scores      validation ${r.validScore ?? "-"}   hidden test ${r.testScore ?? "-"}`,
    `resources   wall ${r.wallS.toFixed(2)} s   cpu ${r.cpuS.toFixed(2)} s   peak ${r.peakMemMb === null ? "-" : `${r.peakMemMb.toFixed(0)} MiB`}`,
    `artifacts   ${r.artifacts.join(", ") || "-"}`,
  ];
  for (const w of r.warnings ?? []) lines.push(`warning     ${w}`);
  if (r.traceback) lines.push("", r.traceback);
  else if (r.status !== "success" && r.stderrTail) lines.push("", r.stderrTail.slice(-2000));
  return lines.join("\n");
}
