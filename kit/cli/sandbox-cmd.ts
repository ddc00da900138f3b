import { existsSync, readFileSync } from "node:fs";
import type { Command } from "commander";
import { resolveTask } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { runSandbox, SandboxQueueClient, type ExecutionRecord } from "../sandbox/index.js";
import { output, UsageError } from "./run-cli.js";
import {
  addLimitOptions,
  checkBackend,
  executorFromFlags,
  executorOptions,
  limitsFromFlags,
  queueKeyFileOption,
  type ExecutorFlags,
  type LimitFlags,
} from "./sandbox-flags.js";

interface RunOpts extends ExecutorFlags, LimitFlags {
  task: string;
  code: string;
  redis: string;
  queueKeyFile?: string;
  workspace?: string;
  keep?: string;
  json?: boolean;
}

/** `openmle sandbox run`: one program against one task; prints its execution record. */
export function registerSandbox(program: Command): void {
  const sb = program.command("sandbox").description("Run programs against tasks in the sandbox");
  const flags = executorOptions("sandbox run");
  const run = sb
    .command("run")
    .description("Run code/main.py against a task and print the execution record")
    .requiredOption("--task <dirOrId>", "task package folder or built-in task id")
    .requiredOption("--code <file>", "the program (a Python file)")
    .addOption(flags.backend);
  addLimitOptions(run)
    .option("--redis <url>", "Redis URL for --backend queue", "redis://127.0.0.1:6379")
    .addOption(queueKeyFileOption())
    .option("--workspace <dir>", "store the record in this workspace (and reuse a stored one)")
    .addOption(flags.dockerImage)
    .option("--keep <dir>", "keep the job folder under this folder")
    .addOption(flags.unsafe)
    .addOption(flags.python)
    .option("--json", "print the record as JSON")
    .action(async (o: RunOpts) => {
      if (!existsSync(o.code)) throw new UsageError(`--code ${o.code} does not exist. Pass the path of a Python file.`);
      const limits = limitsFromFlags(o);
      const code = readFileSync(o.code, "utf8");
      const task = await resolveTask(o.task);
      const warn = (m: string) => process.stderr.write(`openmle: warning: ${m}\n`);
      let ws: Workspace | undefined;
      try {
        ws = o.workspace ? await openWorkspace(o.workspace) : undefined;
        let record: ExecutionRecord;
        if (o.backend === "queue") {
          const client = await SandboxQueueClient.connect(o.redis, {
            workspace: ws,
            ...(o.queueKeyFile ? { keyFile: o.queueKeyFile } : {}),
          });
          try {
            record = await client.submit({ task, code, limits });
          } finally {
            await client.close();
          }
        } else {
          checkBackend("sandbox run", o.backend);
          const executor = executorFromFlags(o, warn);
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
    `resources   wall ${r.wallS.toFixed(2)} s   cpu ${r.cpuS.toFixed(2)} s   peak ` +
      `${r.peakMemMb === null ? "-" : `${r.peakMemMb.toFixed(0)} MiB`}`,
    `artifacts   ${r.artifacts.join(", ") || "-"}`,
  ];
  for (const w of r.warnings ?? []) lines.push(`warning     ${w}`);
  if (r.traceback) lines.push("", r.traceback);
  else if (r.status !== "success" && r.stderrTail) lines.push("", r.stderrTail.slice(-2000));
  return lines.join("\n");
}
