import { z } from "zod";
import { MAX_TIMER_S, timerLimitMessage } from "../util/timer-limit.js";
import { MctsConfig } from "./mcts-step.js";
import { ThreeFactorConfig } from "./three-factor-selection.js";

export const HARNESSES = ["openmle", "aira-evo", "aide", "mcts"] as const;
export type Harness = (typeof HARNESSES)[number];

/**
 * Named presets: a preset supplies the defaults of the fields it lists, explicit fields win.
 * `paper` is the reference code's full-scale setting (12 h per task, 800 steps, 2 h per program, a
 * 6 h Debug-chain cap); `laptop` (the default) is the small setting the kit's tests and notebooks use.
 */
export const EVOLVE_PRESETS = {
  laptop: { steps: 20, perRunTimeoutS: 300, maxWallS: 0, debugTimeCapS: 1800, memoryMb: 4096 },
  paper: { steps: 800, perRunTimeoutS: 7200, maxWallS: 43200, debugTimeCapS: 21600, memoryMb: 12288 },
} as const;
export type EvolvePreset = keyof typeof EVOLVE_PRESETS;

/**
 * The largest sizes a run may ask for, from what evolve holds in memory: every node of the run (code,
 * plan, output tails: ~10 KB, so ~1 GB at 100,000 steps, 125× the paper's 800), a list of the steps to
 * do, one lane per worker and one member list per island, rebuilt each step. Past them Node fails to
 * allocate (`--steps 1e12` aborted with "invalid size") instead of a config error.
 */
export const EVOLVE_MAX = { steps: 100_000, workers: 1_024, islands: 1_000 } as const;

const EvolveConfigObject = z
  .object({
    preset: z
      .enum(["laptop", "paper"])
      .default("laptop")
      .describe(
        "Defaults of the preset (EVOLVE_PRESETS; shown under `presets` here): laptop (small) or " +
          "paper (the reference code's full scale). Explicit fields win.",
      ),
    harness: z
      .enum(HARNESSES)
      .default("openmle")
      .describe("Search harness: openmle (OpenMLE-Evo), aira-evo, aide (greedy) or mcts."),
    steps: z
      .number()
      .int()
      .positive()
      .max(EVOLVE_MAX.steps)
      .default(20)
      .describe("Step budget: nodes (policy call + execution) in the run."),
    seed: z
      .number()
      .int()
      .default(0)
      .describe("Seed of every random choice; with one worker and a deterministic policy it fixes the run."),
    workers: z
      .number()
      .int()
      .positive()
      .max(EVOLVE_MAX.workers)
      .default(1)
      .describe("Executions in flight (Evo-Max steady-state asynchronous workers); 1 = sequential."),
    maxWallS: z.number().nonnegative().default(0).describe("Wall-time budget of the run in seconds (0 = none)."),
    maxSandboxS: z.number().nonnegative().default(0).describe("Total sandbox seconds the run may spend (0 = none)."),
    perRunTimeoutS: z
      .number()
      .positive()
      .max(MAX_TIMER_S, timerLimitMessage("s"))
      .default(300)
      .describe("Time limit of one program execution in seconds."),
    memoryMb: z.number().int().positive().default(4096).describe("Memory cap of one execution in MiB."),
    gpus: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "GPUs per execution (the sandbox's `gpus` limit; unset = CPU jobs). Optional, so configs without it " +
          "keep their hash.",
      ),
    islands: z
      .number()
      .int()
      .positive()
      .max(EVOLVE_MAX.islands)
      .default(1)
      .describe("Number of islands (steps go to islands in turn)."),
    islandMaxSize: z
      .number()
      .int()
      .positive()
      .default(500)
      .describe("Island capacity; past it the lowest-fitness member leaves."),
    gen0Drafts: z
      .number()
      .int()
      .positive()
      .default(5)
      .describe(
        "Individuals per loop generation: generation 0 is this many drafts per island, each later " +
          "generation this many Improve/Crossover children.",
      ),
    crossoverProb: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe("Probability of Crossover (else Improve) once the island's loop generation allows it."),
    crossoverMinGeneration: z
      .number()
      .int()
      .nonnegative()
      .default(2)
      .describe(
        "Crossover only from this loop generation on (generations of gen0Drafts individuals; not lineage depth).",
      ),
    admission: z
      .enum(["island-average", "always"])
      .default("island-average")
      .describe("A scored child joins its island if fitness >= island average, or always."),
    debugMaxAttempts: z
      .number()
      .int()
      .nonnegative()
      .default(10)
      .describe("Debug attempts per chain, then the lane drafts afresh (0 disables Debug chains)."),
    debugTimeCapS: z
      .number()
      .nonnegative()
      .default(1800)
      .describe(
        "A Debug chain stops once its sandbox seconds reach this and its lane drafts afresh (0 = no cap; " +
          "reference 21,600 s).",
      ),
    sameSignatureDraft: z
      .number()
      .int()
      .nonnegative()
      .default(2)
      .describe(
        "Draft afresh when this many last failures of a Debug chain share one terminal category: " +
          "timeout, import, memory or pre-flight (0 = never).",
      ),
    selection: ThreeFactorConfig.default(ThreeFactorConfig.parse({})).describe(
      "OpenMLE-Evo three-factor parent selection.",
    ),
    airaTemperature: z
      .number()
      .positive()
      .default(1)
      .describe(
        "AIRA-Evo softmax temperature over the fitness normalised by the global min/max of the run's scored nodes.",
      ),
    aide: z
      .object({
        numDrafts: z.number().int().positive().default(5).describe("Drafts before AIDE starts improving."),
        debugProb: z.number().min(0).max(1).default(0.5).describe("Probability of debugging a buggy leaf."),
        maxDebugDepth: z
          .number()
          .int()
          .nonnegative()
          .default(3)
          .describe("Only leaves with at most this debug depth are debugged."),
      })
      .strict()
      .default({ numDrafts: 5, debugProb: 0.5, maxDebugDepth: 3 })
      .describe("AIDE greedy settings."),
    mcts: MctsConfig.default(MctsConfig.parse({})).describe(
      "MCTS settings (AIRA-dojo): uct constant, children per expansion, debug-cycle attempts " +
        "(debugTimeCapS caps a cycle's sandbox seconds).",
    ),
    context: z
      .object({
        improveAncestors: z.number().int().nonnegative().default(3).describe("Improve: nearest ancestors shown."),
        improveSiblings: z.number().int().nonnegative().default(3).describe("Improve: top siblings shown."),
        crossoverAncestors: z.number().int().nonnegative().default(2).describe("Crossover: ancestors per parent."),
        crossoverSiblings: z.number().int().nonnegative().default(2).describe("Crossover: siblings per parent."),
        debugFailures: z
          .number()
          .int()
          .nonnegative()
          .default(8)
          .describe("Debug: related nodes shown (same error signature first, then the most recent)."),
        draftIdeas: z
          .number()
          .int()
          .nonnegative()
          .default(10)
          .describe(
            "Draft: previously explored ideas shown (distinct family + plan, most recent first; the " +
              "kit's choice, the paper gives no number).",
          ),
        trendWindow: z
          .number()
          .int()
          .positive()
          .default(5)
          .describe(
            "Improve/Crossover board: scored Improve/Crossover children in the score-delta trend " +
              "(the kit's choice, the paper gives no number).",
          ),
      })
      .strict()
      .default({
        improveAncestors: 3,
        improveSiblings: 3,
        crossoverAncestors: 2,
        crossoverSiblings: 2,
        debugFailures: 8,
        draftIdeas: 10,
        trendWindow: 5,
      })
      .describe("Operator-conditioned context sizes (OpenMLE-Evo)."),
    priors: z
      .boolean()
      .default(false)
      .describe("Evo-Max: show priors distilled from earlier runs' cards on other tasks of the workspace."),
    priorsExcludeTasks: z
      .array(z.string())
      .default([])
      .describe(
        "Task ids whose cards the priors never read (the loop passes its held-out suite: no cross-task input " +
          "from the tasks being evaluated).",
      ),
  })
  .strict();

/** Everything `evolve` does (unknown keys are errors: a typo would silently use a default) (the paper's Fig. 5): the
 * preset's values fill the fields not given, then the schema's defaults. */
export const EvolveConfig = z
  .preprocess(
    (x) =>
      x && typeof x === "object" && !Array.isArray(x)
        ? { ...(EVOLVE_PRESETS[((x as { preset?: EvolvePreset }).preset ?? "laptop") as EvolvePreset] ?? {}), ...x }
        : x,
    EvolveConfigObject,
  )
  .meta({ presets: EVOLVE_PRESETS });
export type EvolveConfig = z.infer<typeof EvolveConfigObject>;
export type EvolveConfigInput = z.input<typeof EvolveConfigObject>;

/**
 * A run's stored config as today's schema reads it: keys that earlier versions stored and that no longer
 * exist are dropped (MCTS `numDrafts` and `maxChildren`, replaced by `numChildren` when MCTS was brought
 * to AIRA-dojo's rules). Anything else unknown stays, so EvolveConfig still rejects it.
 */
export function upgradeStoredConfig(stored: Record<string, unknown>): Record<string, unknown> {
  const mcts = stored.mcts;
  if (!mcts || typeof mcts !== "object" || Array.isArray(mcts)) return stored;
  const { numDrafts: _d, maxChildren: _m, ...rest } = mcts as Record<string, unknown>;
  return { ...stored, mcts: rest };
}
