import type { Command } from "commander";
import {
  describeVerdict,
  directVerdict,
  heldoutReport,
  loop,
  LoopConfig,
  normalisableTasks,
  type LoopConfigInput,
  type LoopEvent,
  type LoopResult,
  type PairedReadings,
} from "../erl/index.js";
import type { PairedInterval } from "../eval/index.js";
import { metricDirections, resolveTask, type TaskPackage } from "../gym/index.js";
import { configHash } from "../store/index.js";
import { sameCommand, withCommandWorkspace } from "./command-workspace.js";
import { intFlag, SEED_RANGE } from "./numeric-flag.js";
import { output, printErr, UsageError } from "./run-cli.js";
import {
  addSearchSandboxOptions,
  checkSearchSandboxFlags,
  withSearchSandbox,
  type SearchSandboxFlags,
} from "./sandbox-flags.js";
import { TASK_LIST_HELP, taskListFlag } from "./task-list-flag.js";

/** Generations to train: each is a whole evolve → collect → SFT → RL round, so a thousand is past any plan. */
const GENERATIONS = { min: 0, max: 1_000 } as const;

interface LoopFlags extends SearchSandboxFlags {
  workspace: string;
  trainTasks: string;
  heldoutTasks: string;
  generations?: string;
  seeds?: string;
  preset?: string;
  from?: string;
  teacher?: string;
  teacherGenerations?: string;
  loop?: string;
  baselines: boolean;
  json?: boolean;
}

const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const f = (x: number | null | undefined, d = 3) =>
  x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(d);

export function registerLoop(program: Command): void {
  const cmd = program
    .command("loop")
    .description(
      "The closed loop: evolve → collectSft → SFT → trainRL → checkpoint k+1, each checkpoint " +
        "evaluated on held-out tasks at equal budget (resumable)",
    )
    .requiredOption("--workspace <dir>", "workspace folder")
    .requiredOption("--train-tasks <idsOrDirs>", `tasks to train on: ${TASK_LIST_HELP}`)
    .requiredOption(
      "--heldout-tasks <idsOrDirs>",
      `tasks to evaluate on (disjoint from --train-tasks): ${TASK_LIST_HELP}`,
    )
    .option("--generations <n>", "generations to train (default 1; resuming with more extends the loop)")
    .option("--seeds <list>", "evolve seeds, e.g. 1,2,3 (default 1)")
    .option("--preset <name>", "smoke | laptop | workstation | paper (default smoke)")
    .option(
      "--from <checkpoint>",
      "generation 0's policy: uniform (every logit 0, the base-model stand-in), default, a checkpoint name or a " +
        "params .json file (default: default)",
    )
    .option(
      "--teacher <checkpoint>",
      "who writes the SFT data of the first --teacher-generations generations: default, a checkpoint or a params " +
        ".json file (default: each generation teaches itself)",
    )
    .option("--teacher-generations <n>", "generations that learn from --teacher (default 1)")
    .option("--loop <id>", "loop id (default: derived from the tasks and settings, so the same command resumes)")
    .option("--no-baselines", "skip kit/eval's trivial/reference baselines (no normalised score)")
    .option("--json", "print the loop's result as JSON");
  addSearchSandboxOptions(cmd).action(async (o: LoopFlags) => {
    checkSearchSandboxFlags(o);
    const config: LoopConfigInput = {
      ...(o.preset ? { preset: o.preset as LoopConfigInput["preset"] } : {}),
      ...(o.generations ? { generations: intFlag("generations", o.generations, GENERATIONS) } : {}),
      ...(o.seeds ? { seeds: list(o.seeds).map((s) => intFlag("seeds", s, SEED_RANGE)) } : {}),
      ...(o.from ? { from: o.from } : {}),
      ...(o.teacher ? { teacher: o.teacher } : {}),
      ...(o.teacherGenerations
        ? { teacherGenerations: intFlag("teacher-generations", o.teacherGenerations, GENERATIONS) }
        : {}),
      baselines: o.baselines,
    };
    const parsed = LoopConfig.safeParse(config);
    if (!parsed.success)
      throw new UsageError(
        `bad loop settings: ${parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    const train = await taskListFlag(o.trainTasks);
    const held = await taskListFlag(o.heldoutTasks);
    const overlap = train.filter((t) => held.includes(t));
    if (overlap.length)
      throw new UsageError(
        `--train-tasks and --heldout-tasks overlap (${overlap.join(", ")}): held-out tasks must be unseen.`,
      );
    const trainTasks: TaskPackage[] = [];
    for (const id of train) trainTasks.push(await resolveTask(id));
    const heldoutTasks: TaskPackage[] = [];
    for (const id of held) heldoutTasks.push(await resolveTask(id));
    const loopId = o.loop ?? `loop-${configHash({ train, held, config: parsed.data }).slice(0, 8)}`;
    // The loop id is derived from the tasks and settings, so the same command resumes where it stopped.
    const resume = () => `${sameCommand(process.argv.slice(2))} (the same command resumes loop ${loopId})`;
    await withCommandWorkspace(
      o.workspace,
      async (ws) => {
        // Every stage's programs (evolve, held-out evolve, collect, baselines, RL) run on the backend: local and
        // Docker through the executor (each stage stores records as it does by itself), the queue through its
        // client (no workspace: evolve's workers write nodes concurrently, and the nodes carry the records).
        const onWarning = (m: string) => printErr(`openmle: warning: ${m}`);
        const res = await withSearchSandbox(o, { onWarning }, (sb) =>
          loop({
            ...(sb.executor ? { executor: sb.executor } : { evaluate: sb.evaluate }),
            workspace: ws,
            loopId,
            trainTasks,
            heldoutTasks,
            config,
            onEvent: progress(!o.json),
          }),
        );
        output(!!o.json, res, () => loopTables(res, metricDirections(heldoutTasks)));
      },
      { resume },
    );
  });
}

function progress(on: boolean): (e: LoopEvent) => void {
  return (e) => {
    if (!on) return;
    if (e.type === "stage-start") process.stderr.write(`generation ${e.generation}: ${e.stage} …\n`);
    if (e.type === "stage-skipped") process.stderr.write(`generation ${e.generation}: ${e.stage} (done earlier)\n`);
  };
}

const ci = (x: PairedInterval | null) => (x ? `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}] (n ${x.n})` : "–");

/** `openmle loop`'s tables for people: each generation's held-out measures and its readings against the previous. */
export function loopTables(r: LoopResult, higherIsBetter: (taskId: string) => boolean): string {
  const norm = normalisableTasks(r.baselines, higherIsBetter);
  const report = heldoutReport(r.checkpoints, r.drafts, r.heldout, norm, higherIsBetter);
  const lines = [
    `loop ${r.loopId}: checkpoints ${r.checkpoints.join(" → ")}`,
    "",
    "Held-out, per generation: mean normalised score over tasks [95 % bootstrap interval] (n tasks); Δ = paired " +
      "difference with the previous generation; win = P(a program of this generation beats one of the previous) − ½ " +
      "on the same task, paired over every held-out task.",
    "",
    "| generation | checkpoint | policy: valid | policy: score | policy: Δ | policy: win | " +
      "search: score | search: Δ | search: win |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const g of report) {
    const [p, s] = [g.vsPrevious?.policy, g.vsPrevious?.search];
    lines.push(
      `| ${g.generation} | ${g.checkpoint} | ${f(g.policy.validRate, 2)} | ${ci(g.policy.score)} | ` +
        `${ci(p?.score.tasks ?? null)} | ${ci(p?.win.tasks ?? null)} | ${ci(g.search.score)} | ` +
        `${ci(s?.score.tasks ?? null)} | ${ci(s?.win.tasks ?? null)} |`,
    );
  }
  if (report.length > 1) {
    lines.push(
      "",
      "The same Δ and win with each task's draws (drafts, seeds) resampled as well as the tasks: wider by the draws' " +
        "own noise. Verdict: a measure beats (or is worse) where both of its intervals exclude 0 on that side.",
      "",
      "| generation | policy: Δ | policy: win | policy: verdict | search: Δ | search: win | search: verdict |",
      "|---|---|---|---|---|---|---|",
    );
    for (const g of report.slice(1)) {
      const cells = (r: PairedReadings) =>
        `${ci(r.score.withDraws)} | ${ci(r.win.withDraws)} | ${describeVerdict(directVerdict(r))}`;
      lines.push(`| ${g.generation} | ${cells(g.vsPrevious!.policy)} | ${cells(g.vsPrevious!.search)} |`);
    }
  }
  return lines.join("\n");
}
