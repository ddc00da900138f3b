import type { Command } from "commander";
import {
  exportRollouts,
  RlConfig,
  trainRL,
  type RlConfigInput,
  type RlEvent,
  type TrainRlResult,
} from "../erl/index.js";
import { resolveTask, type TaskPackage } from "../gym/index.js";
import { createOpenAIModel } from "../llm/index.js";
import { openWorkspace } from "../store/index.js";
import { printableLine } from "../util/index.js";
import { sameCommand, withCommandWorkspace } from "./command-workspace.js";
import { EVOLVE_MAX } from "../evo/index.js";
import { intFlag, numberFlag, SEED_RANGE } from "./numeric-flag.js";
import { output, printErr, UsageError } from "./run-cli.js";
import { TASK_LIST_HELP, taskListFlag } from "./task-list-flag.js";
import {
  addSearchSandboxOptions,
  checkSearchSandboxFlags,
  PROGRAM_TIMEOUT_RANGE,
  programTimeoutOption,
  SANDBOX_FLAG_MAX,
  withSearchSandbox,
  type SearchSandboxFlags,
} from "./sandbox-flags.js";

/** Updates (each stores a checkpoint) as many as evolve's steps; a group's programs and the slots as CPU slots. */
const RL_RANGES = {
  steps: { min: 1, max: EVOLVE_MAX.steps },
  group: { min: 1, max: SANDBOX_FLAG_MAX.cpus },
  workers: { min: 1, max: SANDBOX_FLAG_MAX.cpus },
} as const;

interface TrainFlags extends SearchSandboxFlags {
  workspace: string;
  tasks: string;
  from: string;
  to: string;
  steps?: string;
  group?: string;
  async?: boolean;
  sync?: boolean;
  workers?: string;
  seed?: string;
  resume?: string;
  timeout?: string;
  judgeBaseUrl?: string;
  judgeModel: string;
  json?: boolean;
}

export function registerRl(program: Command): void {
  const rl = program
    .command("rl")
    .description("Execution-grounded RL of the grammar policy (trainRL) and rollout exports for LLM trainers");
  const train = rl
    .command("train")
    .description("Train the grammar policy with rollout groups executed in the sandbox; every step stores a checkpoint")
    .requiredOption("--workspace <dir>", "workspace folder")
    .requiredOption("--tasks <idsOrDirs>", `the tasks to train on: ${TASK_LIST_HELP}`)
    .option("--from <checkpoint>", "start params: default, a checkpoint name, or a params .json file", "default")
    .requiredOption("--to <name>", "name of the final checkpoint (step k is stored as <name>-step<k>)")
    .option("--steps <n>", "policy updates (default 4)")
    .option("--group <g>", "programs per rollout group (default 8)")
    .option("--async", "asynchronous rollout groups (default)")
    .option("--sync", "synchronous: wait for the whole batch each step")
    .option("--workers <k>", "sandbox slots (default 2)")
    .option("--seed <s>", "seed (default 1)")
    .addOption(programTimeoutOption(" (default 120)"))
    .option("--resume <runId>", "continue a killed run from its last stored step")
    .option("--judge-base-url <url>", "an OpenAI-compatible endpoint for the pre-execution reward-hacking judge")
    .option("--judge-model <id>", "the judge's model id", "Qwen/Qwen3-8B")
    .option("--json", "print the run's result as JSON");
  addSearchSandboxOptions(train).action(async (o: TrainFlags) => {
    if (o.async && o.sync) throw new UsageError("pass --async or --sync, not both.");
    checkSearchSandboxFlags(o);
    const config: RlConfigInput = {
      ...(o.steps ? { steps: intFlag("steps", o.steps, RL_RANGES.steps) } : {}),
      ...(o.group ? { group: intFlag("group", o.group, RL_RANGES.group) } : {}),
      ...(o.workers ? { workers: intFlag("workers", o.workers, RL_RANGES.workers) } : {}),
      ...(o.seed ? { seed: intFlag("seed", o.seed, SEED_RANGE) } : {}),
      ...(o.sync ? { mode: "sync" as const } : o.async ? { mode: "async" as const } : {}),
      ...(o.timeout ? { perRunTimeoutS: numberFlag("timeout", o.timeout, PROGRAM_TIMEOUT_RANGE) } : {}),
    };
    const parsed = RlConfig.safeParse(config);
    if (!parsed.success)
      throw new UsageError(
        `bad rl settings: ${parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    const ids = await taskListFlag(o.tasks);
    if (!ids.length) throw new UsageError("--tasks needs at least one task id or folder.");
    const tasks: TaskPackage[] = [];
    for (const id of ids) tasks.push(await resolveTask(id));
    const judge = o.judgeBaseUrl ? createOpenAIModel({ baseURL: o.judgeBaseUrl, model: o.judgeModel }) : undefined;
    const ac = new AbortController();
    const stop = () => ac.abort();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    let runId: string | null = o.resume ?? null;
    const show = progress(!o.json);
    const resume = () => (runId ? sameCommand(process.argv.slice(2), "--resume", runId) : null);
    try {
      await withCommandWorkspace(
        o.workspace,
        async (ws) => {
          // Local, Docker: trainRL pools its groups on --workers slots of the executor; queue: the workers' slots
          // bound them. RL stores no execution records (its rollouts are its records), on any backend.
          const onWarning = (m: string) => printErr(`openmle: warning: ${m}`);
          const res = await withSearchSandbox(o, { onWarning }, (sb) =>
            trainRL({
              ...(sb.executor ? { executor: sb.executor } : { execute: sb.evaluate }),
              workspace: ws,
              tasks,
              from: o.from,
              to: o.to,
              config,
              resume: o.resume,
              judge,
              signal: ac.signal,
              onEvent: (e) => {
                if (e.type === "run-start") runId = e.runId;
                show(e);
              },
            }),
          );
          output(!!o.json, res, () => human(res, ws.dir));
        },
        { resume },
      );
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  });
  rl.command("export")
    .description(
      "Write an RL run's rollouts (task, operator, prompt messages, program, reward, advantage, " +
        "group, old log-prob) to Parquet or JSONL",
    )
    .requiredOption("--workspace <dir>", "workspace folder")
    .requiredOption("--run <id>", 'RL run id (openmle workspace query DIR "SELECT run_id FROM rl_runs")')
    .requiredOption("--out <file>", "output file: *.parquet or *.jsonl")
    .option("--json", "print {file, rows} as JSON")
    .action(async (o: { workspace: string; run: string; out: string; json?: boolean }) => {
      const ws = await openWorkspace(o.workspace, { readOnly: true });
      try {
        const r = await exportRollouts(ws, o.run, o.out);
        output(!!o.json, r, () => `${r.rows} rollouts of ${o.run} → ${r.file}`);
      } finally {
        ws.close();
      }
    });
}

/** One line per step on stderr (and a dot per finished group); run and checkpoint names with printableLine. */
function progress(enabled: boolean): (e: RlEvent) => void {
  return (e) => {
    if (!enabled) return;
    if (e.type === "run-start")
      process.stderr.write(
        `rl run ${printableLine(e.runId)}${e.resumed ? ` (resumed after step ${e.step})` : ""}: ${e.steps} steps\n`,
      );
    if (e.type === "group") process.stderr.write(".");
    if (e.type === "group-dropped") process.stderr.write("x");
    if (e.type === "step") {
      const m = e.metrics;
      process.stderr.write(
        `\rstep ${m.step}: mean reward ${m.meanReward.toFixed(3)}, best ` +
          `${m.bestReward.toFixed(3)}, best-candidate advantage ${m.bestAdvantage.toFixed(2)}, β ` +
          `${m.beta.toFixed(2)}, valid ${(100 * m.validRate).toFixed(0)}%, hacks ` +
          `${m.hackFlags}, ${m.wallS.toFixed(1)} s → ${printableLine(e.checkpoint)}\n`,
      );
    }
  };
}

function human(r: TrainRlResult, dir: string): string {
  const last = r.steps.at(-1);
  return [
    `rl run ${r.runId}: ${r.steps.length} step(s) this session → checkpoint ${r.checkpoint}`,
    `groups per task: ${Object.entries(r.perTask)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
    last
      ? `last step: mean reward ${last.meanReward.toFixed(3)}, best-candidate ` +
        `advantage ${last.bestAdvantage.toFixed(2)}`
      : "no step made",
    `workspace ${dir}; export with: openmle rl export --workspace ${dir} --run ${r.runId} --out rollouts.parquet`,
  ].join("\n");
}
