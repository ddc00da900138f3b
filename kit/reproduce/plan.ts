// The plan of one experiment at one preset: its cells (arm × task × repeat; arm × repeat for rl), the programs they
// execute, and what that costs. `openmle reproduce <id> --dry-run` prints it; `--list` shows the laptop cost.
import { needsTrivial, RlConfig } from "../erl/index.js";
import { liteCompetitionIds } from "../eval/index.js";
import { PresetNotDefinedError } from "./errors.js";
import { REPRODUCE_PRESETS, type ExperimentSpec, type ReproducePreset, type TaskSet } from "./experiment-spec.js";

/**
 * Programs per minute of laptop-preset work on 2 cores with 2 warm sandbox workers, measured over a whole loop
 * generation on mixed corpus tasks: 987 executions in 41.0 min (bench/erl/runs/2026-12-02-learning-02-run2-arm-b.md,
 * arm B, 2026-12-02). The warm sandbox alone reaches 32.8 nodes/min on one small task (bench/throughput).
 */
export const LAPTOP_PROGRAMS_PER_MIN = 24;
/**
 * Programs per minute of an rl preset's cells (trainRL, 2 sandbox slots, warm start, groups of 8 drawn over 30
 * training tasks, so zygotes are restarted as groups change task): 1,536 programs in 98.2 min of trainer steps,
 * rl-reward-design's 4 laptop cells on 2026-12-03, a fresh-clone CI beside the first two (bench/reproduce).
 */
export const LAPTOP_RL_PROGRAMS_PER_MIN = 16;
/**
 * Minutes of `openmle task build-corpus --jobs 2` on 2 cores, cold cache: 412 candidates in 1,763 s on a fresh
 * machine, 2026-12-03 (the recorded build of 2026-12-02, bench/gym/corpus.json, took 3,295 s with other work beside).
 */
export const CORPUS_BUILD_MIN = 29;
const CORPUS_CANDIDATES = 412;

export interface PlanCell {
  readonly arm: string;
  /** A task id, `suite#i` for the i-th task of a corpus suite, or null (rl steps span the task set; the funnel). */
  readonly task: string | null;
  readonly repeat: number;
  readonly programs: number;
  /** Of `programs`, the trivial baselines an rl cell runs for its static worst bounds (one per task at most). */
  readonly baselines?: number;
}

export interface ExperimentPlan {
  readonly id: string;
  readonly preset: ReproducePreset;
  /** Set when the experiment lays out another's cells and runs nothing of its own. */
  readonly sharesCellsWith: string | null;
  readonly cells: readonly PlanCell[];
  readonly totals: {
    readonly arms: number;
    readonly tasks: number;
    readonly repeats: number;
    readonly cells: number;
    readonly programs: number;
    /** Estimated minutes on 2 cores (smoke and laptop presets; null for paper), `first` included. */
    readonly laptopMinutes: number | null;
    /** What must be built before the cells can run, with its minutes on 2 cores (included in laptopMinutes). */
    readonly first: readonly { readonly what: string; readonly minutes: number }[];
    /** Sandbox GPU hours of the search cells at the paper's per-task budget (paper preset; null otherwise). */
    readonly gpuHours: number | null;
  };
}

/** The task labels of a task set: ids where they are known without building anything. */
export function taskLabels(tasks: TaskSet): string[] {
  if (tasks.from === "builtin") return [...tasks.ids];
  if (tasks.from === "mlebench-lite") return liteCompetitionIds();
  if (tasks.from === "suite") return Array.from({ length: tasks.count }, (_, i) => `${tasks.suite}#${i + 1}`);
  return [];
}

/**
 * Cells and cost:
 *   search: cells = arms × tasks × repeats, each `steps` programs;
 *   rl:     cells = arms × repeats, each steps × groupsPerStep × group programs (groups draw from the task set),
 *           plus one trivial-baseline program per task where the arm's bounds use it (needsTrivial; at most: a
 *           task with a leaderboard skips it);
 *   sft:    cells = tasks × repeats teacher runs of `steps` programs plus, per repeat, collectSft's parallel
 *           drafts (the arm's maxAttempts setting, else parallelDraftsPerTask);
 *   funnel: one cell, the corpus build (CORPUS_BUILD_MIN for the whole manifest, pro rata for a sample);
 *   laptop minutes = programs / LAPTOP_PROGRAMS_PER_MIN (rl: LAPTOP_RL_PROGRAMS_PER_MIN), plus what must be built
 *   first: the corpus build (CORPUS_BUILD_MIN) when the preset's tasks are a corpus suite and it is not built;
 *   paper GPU hours = search cells × hoursPerTask.
 */
export function planExperiment(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  opts: {
    /** The task ids in place of the labels (a resolved corpus suite); as many as the preset's tasks. */
    readonly taskIds?: readonly string[];
    /** collectSft's parallel attempts per task of an arm without a maxAttempts setting (the loop's laptop cap). */
    readonly parallelDraftsPerTask?: number;
    /** Whether this machine has the corpus built (its index exists): else a suite's tasks need the build first. */
    readonly corpusBuilt?: boolean;
  } = {},
): ExperimentPlan {
  const drafts = opts.parallelDraftsPerTask ?? 8;
  const empty = { id: spec.id, preset, cells: [], sharesCellsWith: spec.sharesCellsWith ?? null };
  const zero = {
    arms: 0,
    tasks: 0,
    repeats: 0,
    cells: 0,
    programs: 0,
    laptopMinutes: preset === "paper" ? null : 0,
    gpuHours: null,
    first: [],
  };
  if (spec.sharesCellsWith) return { ...empty, totals: zero };
  const p = spec.presets[preset];
  if (!p)
    throw new PresetNotDefinedError(
      spec.id,
      preset,
      REPRODUCE_PRESETS.filter((n) => spec.presets[n]),
    );
  const tasks = opts.taskIds ? [...opts.taskIds] : taskLabels(p.tasks);
  const repeats = Array.from({ length: p.repeats }, (_, i) => i + 1);
  const cells: PlanCell[] = p.arms.flatMap((arm): PlanCell[] => {
    if (spec.kind === "search")
      return tasks.flatMap((task) => repeats.map((repeat) => ({ arm: arm.id, task, repeat, programs: p.steps })));
    if (spec.kind === "rl") {
      const baselines = trivialBaselines(arm.settings) ? tasks.length : 0;
      return repeats.map((repeat) => ({
        arm: arm.id,
        task: null,
        repeat,
        programs: p.steps * p.groupsPerStep * p.group + baselines,
        baselines,
      }));
    }
    if (spec.kind === "sft")
      return tasks.flatMap((task) =>
        repeats.map((repeat) => ({
          arm: arm.id,
          task,
          repeat,
          programs: p.steps + (typeof arm.settings.maxAttempts === "number" ? arm.settings.maxAttempts : drafts),
        })),
      );
    return [{ arm: arm.id, task: null, repeat: 1, programs: 0 }];
  });
  const programs = cells.reduce((t, c) => t + c.programs, 0);
  // A corpus suite's tasks exist once the corpus is built (the funnel experiment is that build itself).
  const first =
    p.tasks.from === "suite" && !opts.corpusBuilt && preset !== "paper"
      ? [{ what: "the corpus build (openmle task build-corpus --jobs 2)", minutes: CORPUS_BUILD_MIN }]
      : [];
  const laptopMinutes =
    preset === "paper"
      ? null
      : (spec.kind === "funnel"
          ? (CORPUS_BUILD_MIN * (p.candidates?.length ?? CORPUS_CANDIDATES)) / CORPUS_CANDIDATES
          : programs / (spec.kind === "rl" ? LAPTOP_RL_PROGRAMS_PER_MIN : LAPTOP_PROGRAMS_PER_MIN)) +
        first.reduce((t, f) => t + f.minutes, 0);
  const gpuHours = preset === "paper" && spec.kind === "search" ? cells.length * (p.hoursPerTask ?? 0) : null;
  return {
    ...empty,
    cells,
    totals: {
      arms: p.arms.length,
      tasks: tasks.length,
      repeats: p.repeats,
      cells: cells.length,
      programs,
      laptopMinutes,
      gpuHours,
      first,
    },
  };
}

/** Whether an rl arm's settings run the trivial baseline once per task for its static worst bound. */
function trivialBaselines(settings: Readonly<Record<string, unknown>>): boolean {
  const cfg = RlConfig.safeParse(settings);
  return cfg.success && needsTrivial(cfg.data.trivialWorst, cfg.data.bounds.anchor);
}
