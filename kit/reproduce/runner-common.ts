// What the cell runners (search, rl, sft) share: their options, an arm's checkpoint reference, its cells.
import type { TaskPackage } from "../gym/index.js";
import type { LanguageModel } from "../llm/index.js";
import type { ExecutionRecord, Executor, SandboxJob } from "../sandbox/index.js";
import type { Workspace } from "../store/index.js";
import { ReproduceError } from "./errors.js";
import type { ArmSpec, ExperimentPreset, ExperimentSpec, ReproducePreset } from "./experiment-spec.js";

/** The options every cell runner takes; `loopId` is the loop whose checkpoints the arms' "loop:gN" mean. */
export interface RunnerOptions<E> {
  readonly workspace: Workspace;
  readonly spec: ExperimentSpec;
  readonly preset: ReproducePreset;
  readonly tasks: readonly TaskPackage[];
  readonly loopId?: string;
  /** The models of "endpoint:NAME" arms by NAME (OpenAI-compatible servers; the paper preset's arms). */
  readonly endpoints?: ReadonlyMap<string, LanguageModel>;
  /** Runs one program (search and sft cells, the baselines; rl cells without `executor`). Default: runSandbox. */
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  /** rl cells: trainRL pools its groups on this executor's slots (the local and docker backends). */
  readonly executor?: Executor;
  readonly onEvent?: (e: E) => void;
  /** Search cells: the corpus leaderboards' folder (default data/corpus-leaderboards: kit/eval leaderboardsFor). */
  readonly corpusLeaderboardsDir?: string;
  /** Told what was left out and why, one line each (search cells: a corpus leaderboard built on another package). */
  readonly onWarning?: (message: string) => void;
}

/**
 * The params reference of an arm: "uniform" | "default" | a checkpoint name, or checkpoint `<loop>-gN` for
 * "loop:gN". Endpoint arms are refused with `endpointNote` (what this runner does with them instead).
 */
export function armCheckpoint(arm: ArmSpec, loopId: string | undefined, endpointNote: string): string {
  const ref = arm.policy ?? "default";
  if (ref.startsWith("endpoint:"))
    throw new ReproduceError(`arm ${arm.id}: ${ref} is an LLM endpoint; ${endpointNote}`);
  const g = /^loop:g(\d+)$/.exec(ref);
  if (g && !loopId)
    throw new ReproduceError(`arm ${arm.id} uses ${ref}: pass the loop whose checkpoints it means (--loop ID)`);
  return g ? `${loopId}-g${g[1]}` : ref;
}

/** A preset's cells without tasks: every arm × repeat 1…k, arm by arm. */
export const armRepeatCells = (p: ExperimentPreset) =>
  p.arms.flatMap((arm) => Array.from({ length: p.repeats }, (_, i) => ({ arm, repeat: i + 1 })));
