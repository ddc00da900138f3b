import type { Command } from "commander";
import { resolveTask } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { runSandbox, SandboxQueueClient, type ExecutionRecord } from "../sandbox/index.js";
import { printable, printableLine } from "../util/index.js";
import { formatScore } from "./format.js";
import { readFileFlag } from "./path-flag.js";
import { output, printErr } from "./run-cli.js";
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
      const code = readFileFlag("--code", o.code, "Pass the path of a Python file.");
      const limits = limitsFromFlags(o);
      const task = await resolveTask(o.task);
      const warn = (m: string) => printErr(`openmle: warning: ${m}`);
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

/**
 * The record for people. Names and messages a program chose (artifact names, the error signature, warnings
 * that quote it) are single-line fields (printableLine: a newline in a file name cannot forge a line);
 * the traceback and the stderr tail keep their lines (`output` makes the whole text printable).
 */
export function describeRecord(r: ExecutionRecord): string {
  const line = printableLine;
  const lines = [
    `status      ${r.status}${r.errorSignature ? ` (${line(r.errorSignature)})` : ""}`,
    `task        ${line(r.taskId)}   backend ${r.backend}   execution ${line(r.executionId)}`,
    `scores      validation ${formatScore(r.validScore)}   hidden test ${formatScore(r.testScore)}`,
    `resources   wall ${r.wallS.toFixed(2)} s   cpu ${r.cpuS.toFixed(2)} s   peak ` +
      `${r.peakMemMb === null ? "-" : `${r.peakMemMb.toFixed(0)} MiB`}`,
    `artifacts   ${r.artifacts.map(line).join(", ") || "-"}`,
  ];
  for (const w of r.warnings ?? []) lines.push(`warning     ${line(w)}`);
  if (r.traceback) lines.push("", printable(r.traceback));
  else if (r.status !== "success" && r.stderrTail) lines.push("", printable(r.stderrTail.slice(-2000)));
  return lines.join("\n");
}
