import type { Command } from "commander";
import {
  collectSft,
  exportDataset,
  resolvePolicyParams,
  sftTrain,
  CollectSftConfig,
  SftTrainConfig,
  PAPER_COMPOSITION,
  type CollectEvent,
  type CollectSftResult,
  type Teachers,
} from "../erl/index.js";
import { resolveTask } from "../gym/index.js";
import { createOpenAIModel, recordingModel } from "../llm/index.js";
import { createCheckpointPolicy, createGrammarPolicy, createLlmPolicy, type Policy } from "../policy/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { withCommandWorkspace } from "./command-workspace.js";
import { EVOLVE_MAX } from "../evo/index.js";
import { intFlag, numberFlag, SEED_RANGE } from "./numeric-flag.js";
import { printableLine } from "../util/index.js";
import { formatScore } from "./format.js";
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

interface CollectFlags extends SearchSandboxFlags {
  workspace: string;
  tasks?: string;
  runs?: string;
  allRuns?: boolean;
  teacher: string;
  secondaryTeacher?: string;
  attempts?: string;
  minAttempts?: string;
  batch?: string;
  cap?: string;
  seed?: string;
  timeout?: string;
  baseUrl: string;
  model: string;
  judgeBaseUrl?: string;
  judgeModel?: string;
  dataset: string;
  replace?: boolean;
  json?: boolean;
}

/** Attempts (programs run per task) as many as evolve's steps; a batch (run at once) and kept drafts as CPU slots. */
const COLLECT_RANGES = {
  attempts: { min: 1, max: EVOLVE_MAX.steps },
  minAttempts: { min: 0, max: EVOLVE_MAX.steps },
  batch: { min: 1, max: SANDBOX_FLAG_MAX.cpus },
  cap: { min: 1, max: SANDBOX_FLAG_MAX.cpus },
} as const;

/** Epochs are full-batch passes (one gradient step each); the learning rate and held-out share as the schema says. */
const TRAIN_RANGES = {
  epochs: { min: 1, max: EVOLVE_MAX.steps },
  lr: { min: 0, max: 1e6 },
  heldOut: { min: 0, max: 1 },
  folds: { min: 1, max: 100 },
} as const;

/** grammar | grammar:<checkpoint|file.json> | openai → a Policy. */
async function teacherOf(spec: string, ws: Workspace, o: CollectFlags, flag: string): Promise<Policy> {
  if (spec === "openai")
    return createLlmPolicy(recordingModel(createOpenAIModel({ baseURL: o.baseUrl, model: o.model }), ws));
  const m = /^grammar(?::(.+))?$/.exec(spec);
  if (!m) throw new UsageError(`${flag} must be grammar, grammar:<checkpoint|file.json> or openai, got "${spec}".`);
  if (!m[1] || m[1] === "default") return createGrammarPolicy();
  const { params, checkpoint } = await resolvePolicyParams(m[1], ws);
  return createCheckpointPolicy(params, checkpoint);
}

function progress(enabled: boolean): (e: CollectEvent) => void {
  return (e) => {
    if (!enabled) return;
    if (e.type === "attempt")
      process.stderr.write(
        `\r${printableLine(e.taskId)}: attempt ` +
          `${e.attempt + 1} ${e.status}${e.score !== null ? ` valid ${formatScore(e.score)}` : ""}` +
          `${e.testScore !== null ? ` test ${formatScore(e.testScore)}` : ""}            `,
      );
    if (e.type === "task-done")
      process.stderr.write(
        `\r${printableLine(e.stats.taskId)}: ${e.stats.kept} kept of ${e.stats.attempts} attempts (` +
          `${e.stats.stopReason})            \n`,
      );
    if (e.type === "segment") printErr(`${e.segment.runId} ${e.segment.steps.join(">")}: ${e.segment.reason}`);
    if (e.type === "run-skipped") printErr(`skipped ${e.runId}: ${e.reason}`);
  };
}

/** "kept 2, zero-reward 1, ..." in the ranking's order. */
function reasonList(reasons: CollectSftResult["parallel"][number]["reasons"]): string {
  return Object.entries(reasons)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
}

function human(r: CollectSftResult, dir: string): string {
  const pct = (x: number) => `${x.toFixed(1)}%`;
  return [
    `dataset ${r.dataset}: ${r.examples.length} examples (${r.dropped.duplicates} duplicates and ` +
      `${r.dropped.overTokens} over the token limit dropped; ${r.dropped.baselineFilter} candidates dropped by ` +
      `the validation–test filter), judge ${r.judge}, ${r.wallS.toFixed(0)} s`,
    ...r.parallel.map(
      (p) =>
        `  parallel ${p.taskId}: ${p.kept} kept, ${p.valid} graded of ${p.attempts} attempts, stop: ` +
        `${p.stopReason}; ${reasonList(p.reasons)}`,
    ),
    `  segments: ${r.segments.filter((s) => s.accepted).length} accepted of ` +
      `${r.segments.length}${r.skippedRuns.length ? `; ${r.skippedRuns.length} runs skipped` : ""}`,
    "  operator    parallel  evolution  share   paper",
    ...r.composition.map(
      (c) =>
        `  ${c.operator.padEnd(10)} ${String(c.parallel).padStart(9)} ${String(c.evolution).padStart(10)} ` +
        `${pct(c.sharePct).padStart(7)} ${pct(PAPER_COMPOSITION[c.operator]).padStart(7)}`,
    ),
    `workspace ${dir}`,
  ].join("\n");
}

export function registerSft(program: Command): void {
  const sft = program
    .command("sft")
    .description("Execution-grounded SFT data (collect, export) and SFT of the grammar policy (train)");
  const collect = sft
    .command("collect")
    .description("Collect SFT examples from parallel drafts and/or stored evolution trees into a named dataset")
    .requiredOption("--workspace <dir>", "workspace folder")
    .requiredOption("--dataset <name>", "name of the dataset to write")
    .option("--tasks <ids>", `parallel path: ${TASK_LIST_HELP}`)
    .option("--runs <ids>", "evolutionary path: comma-separated run ids")
    .option(
      "--all-runs",
      "evolutionary path: every finished run in the workspace (runs without nodes or threshold are skipped)",
    )
    .option("--teacher <spec>", "grammar | grammar:<checkpoint|file.json> | openai", "grammar")
    .option("--secondary-teacher <spec>", "a second teacher, kept only when it ranks 1st on a task")
    .option("--attempts <n>", "attempt budget per task", "32")
    .option(
      "--min-attempts <n>",
      "attempts before a filled quota may stop a task (rank the kept drafts among them)",
      "0",
    )
    .option("--batch <n>", "attempts per batch", "4")
    .option("--cap <n>", "drafts kept per task", "4")
    .option("--seed <n>", "seed of the parallel draws", "0")
    .addOption(programTimeoutOption())
    .option("--base-url <url>", "--teacher openai: endpoint base URL", "http://127.0.0.1:8000/v1")
    .option("--model <id>", "--teacher openai: model id", "Qwen/Qwen3-8B")
    .option("--judge-base-url <url>", "the causal-inheritance judge's endpoint (omit to skip the judge)")
    .option("--judge-model <id>", "the judge's model id", "Qwen/Qwen3-8B")
    .option("--replace", "overwrite an existing dataset of that name")
    .option("--json", "print the result as JSON");
  addSearchSandboxOptions(collect).action(async (o: CollectFlags) => {
    if (!o.tasks && !o.runs && !o.allRuns)
      throw new UsageError("nothing to collect: pass --tasks and/or --runs/--all-runs.");
    if (o.runs && o.allRuns) throw new UsageError("pass --runs or --all-runs, not both.");
    checkSearchSandboxFlags(o);
    const config = {
      maxAttempts: intFlag("attempts", o.attempts!, COLLECT_RANGES.attempts),
      minAttempts: intFlag("min-attempts", o.minAttempts!, COLLECT_RANGES.minAttempts),
      batchSize: intFlag("batch", o.batch!, COLLECT_RANGES.batch),
      perTaskCap: intFlag("cap", o.cap!, COLLECT_RANGES.cap),
      seed: intFlag("seed", o.seed!, SEED_RANGE),
      ...(o.timeout ? { perRunTimeoutS: numberFlag("timeout", o.timeout, PROGRAM_TIMEOUT_RANGE) } : {}),
    };
    const parsed = CollectSftConfig.safeParse(config);
    if (!parsed.success)
      throw new UsageError(
        `bad sft settings: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    const tasks = o.tasks ? await Promise.all((await taskListFlag(o.tasks)).map((t) => resolveTask(t))) : undefined;
    // A failed collect stores no dataset (it is written at the end), so the same command starts it again.
    await withCommandWorkspace(o.workspace, async (ws) => {
      const teachers: Teachers | undefined = tasks
        ? {
            primary: await teacherOf(o.teacher, ws, o, "--teacher"),
            ...(o.secondaryTeacher
              ? { secondary: await teacherOf(o.secondaryTeacher, ws, o, "--secondary-teacher") }
              : {}),
          }
        : undefined;
      // Every model call (teacher, judge) is logged in llm_calls.
      const judge = o.judgeBaseUrl
        ? recordingModel(createOpenAIModel({ baseURL: o.judgeBaseUrl, model: o.judgeModel }), ws)
        : undefined;
      // The drafts' records are stored once per idempotency key in the workspace, whichever backend runs them.
      const onWarning = (m: string) => printErr(`openmle: warning: ${m}`);
      const res = await withSearchSandbox(o, { workspace: ws, onWarning }, (sb) =>
        collectSft({
          evaluate: sb.evaluate,
          workspace: ws,
          dataset: o.dataset,
          replace: !!o.replace,
          tasks,
          teachers,
          judge,
          config: parsed.data,
          runs: o.allRuns
            ? "all"
            : o.runs
              ? o.runs
                  .split(",")
                  .map((s) => s.trim())
                  .filter(Boolean)
              : undefined,
          onEvent: progress(!o.json && process.stderr.isTTY),
        }),
      );
      const { examples: _e, ...rest } = res;
      output(!!o.json, { ...rest, examples: res.examples.length }, () => human(res, ws.dir));
    });
  });
  sft
    .command("export")
    .description('Export a dataset as chat JSONL ({"messages": [...]} per line) or Parquet (all metadata columns)')
    .requiredOption("--workspace <dir>", "workspace folder")
    .requiredOption("--dataset <name>", "dataset name")
    .requiredOption("--out <file>", "FILE.jsonl or FILE.parquet")
    .option("--json", "print the result as JSON")
    .action(async (o: { workspace: string; dataset: string; out: string; json?: boolean }) => {
      const ws = await openWorkspace(o.workspace, { readOnly: true });
      try {
        const r = await exportDataset(ws, o.dataset, o.out);
        output(!!o.json, r, () => `${r.examples} examples → ${r.file}`);
      } finally {
        ws.close();
      }
    });
  sft
    .command("train")
    .description(
      "SFT of the grammar policy (L_evo, w = 1) on a dataset; the result is a named checkpoint (evolve --params NAME)",
    )
    .requiredOption("--workspace <dir>", "workspace folder")
    .requiredOption("--dataset <name>", "dataset name")
    .requiredOption("--to <name>", "name of the checkpoint to write")
    .option("--from <ref>", "checkpoint name, params .json file, or default", "default")
    .option("--epochs <n>", "passes over the examples")
    .option("--lr <x>", "learning rate")
    .option("--held-out <share>", "share of examples (of tasks with --split-by task) held out (0 = none)")
    .option("--split-by <unit>", "hold out examples, or whole tasks: example | task")
    .option("--seed <n>", "seed of the held-out split")
    .option(
      "--folds <k>",
      "k ≥ 2: choose the epoch on k folds (of --split-by's unit), each held out once, then train on all examples " +
        "for that many epochs (--held-out is not used); 1: one held-out split",
    )
    .option("--replace", "overwrite an existing checkpoint of that name")
    .option("--json", "print the result as JSON")
    .action(
      async (o: {
        workspace: string;
        dataset: string;
        to: string;
        from: string;
        epochs?: string;
        lr?: string;
        heldOut?: string;
        splitBy?: string;
        seed?: string;
        folds?: string;
        replace?: boolean;
        json?: boolean;
      }) => {
        const config = {
          ...(o.epochs ? { epochs: intFlag("epochs", o.epochs, TRAIN_RANGES.epochs) } : {}),
          ...(o.lr ? { lr: numberFlag("lr", o.lr, TRAIN_RANGES.lr) } : {}),
          ...(o.heldOut ? { heldOut: numberFlag("held-out", o.heldOut, TRAIN_RANGES.heldOut) } : {}),
          ...(o.seed ? { seed: intFlag("seed", o.seed, SEED_RANGE) } : {}),
          ...(o.folds ? { folds: intFlag("folds", o.folds, TRAIN_RANGES.folds) } : {}),
          ...(o.splitBy ? { splitBy: o.splitBy } : {}),
        };
        if (o.splitBy && o.splitBy !== "example" && o.splitBy !== "task")
          throw new UsageError(`--split-by must be example or task, got "${o.splitBy}".`);
        const parsed = SftTrainConfig.safeParse(config);
        if (!parsed.success)
          throw new UsageError(
            `bad sft train settings: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
          );
        await withCommandWorkspace(o.workspace, async (ws) => {
          const r = await sftTrain(ws, {
            dataset: o.dataset,
            from: o.from,
            to: o.to,
            config: parsed.data,
            replace: !!o.replace,
          });
          const m = r.metrics;
          const f = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));
          output(
            !!o.json,
            {
              checkpoint: r.checkpoint.name,
              parent: r.checkpoint.parent,
              configHash: r.checkpoint.configHash,
              metrics: m,
            },
            () =>
              [
                `checkpoint ${r.checkpoint.name} (from ${r.checkpoint.parent}, dataset ${o.dataset}): ` +
                  `${m.trainExamples} train / ${m.heldOutExamples} held-out examples, ` +
                  `${m.skippedExamples} not written by the grammar policy`,
                `  mean log-likelihood  train ${f(m.trainLogLikBefore)} → ${f(m.trainLogLikAfter)}   held-out ` +
                  `${f(m.heldOutLogLikBefore)} → ${f(m.heldOutLogLikAfter)}   kept epoch ${m.keptEpoch} of ` +
                  `${parsed.data.epochs}${parsed.data.folds > 1 ? ` (chosen on ${parsed.data.folds} folds)` : ""}`,
                `  use it: openmle evolve --params ${r.checkpoint.name} --workspace ${o.workspace} ...`,
              ].join("\n"),
          );
        });
      },
    );
}
