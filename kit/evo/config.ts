import { z } from "zod";
import { MAX_TIMER_S, timerLimitMessage } from "../util/timer-limit.js";
import { ThreeFactorConfig } from "./three-factor-selection.js";

export const HARNESSES = ["openmle", "aira-evo", "aide", "mcts"] as const;
export type Harness = (typeof HARNESSES)[number];

/** Everything `evolve` does, with the reference defaults of spec §4. Unknown keys are errors (a typo would silently use a default). */
export const EvolveConfig = z.object({
  harness: z.enum(HARNESSES).default("openmle").describe("Search harness: openmle (OpenMLE-Evo), aira-evo, aide (greedy) or mcts."),
  steps: z.number().int().positive().default(20).describe("Step budget: nodes (policy call + execution) in the run."),
  seed: z.number().int().default(0).describe("Seed of every random choice; with one worker and a deterministic policy it fixes the run."),
  workers: z.number().int().positive().default(1).describe("Executions in flight (Evo-Max steady-state asynchronous workers); 1 = sequential."),
  maxWallS: z.number().nonnegative().default(0).describe("Wall-time budget of the run in seconds (0 = none)."),
  maxSandboxS: z.number().nonnegative().default(0).describe("Total sandbox seconds the run may spend (0 = none)."),
  perRunTimeoutS: z.number().positive().max(MAX_TIMER_S, timerLimitMessage("s")).default(300).describe("Time limit of one program execution in seconds."),
  memoryMb: z.number().int().positive().default(4096).describe("Memory cap of one execution in MiB."),
  islands: z.number().int().positive().default(1).describe("Number of islands (steps go to islands in turn)."),
  islandMaxSize: z.number().int().positive().default(500).describe("Island capacity; past it the lowest-fitness member leaves."),
  gen0Drafts: z.number().int().positive().default(5).describe("Generation 0: drafts per island before any Improve/Crossover."),
  crossoverProb: z.number().min(0).max(1).default(0.5).describe("Probability of Crossover (else Improve) once the island's generation allows it."),
  crossoverMinGeneration: z.number().int().nonnegative().default(2).describe("Crossover only once the island's generation is at least this."),
  admission: z.enum(["island-average", "always"]).default("island-average").describe("A scored child joins its island if fitness >= island average, or always."),
  debugMaxAttempts: z.number().int().nonnegative().default(10).describe("Debug attempts per chain (0 disables Debug chains)."),
  debugTimeCapS: z.number().nonnegative().default(1800).describe("A Debug chain stops once its sandbox seconds reach this (0 = no cap)."),
  sameSignatureDraft: z.number().int().nonnegative().default(2).describe("Draft afresh after this many last Debug attempts fail with one error signature (0 = never)."),
  selection: ThreeFactorConfig.default(ThreeFactorConfig.parse({})).describe("OpenMLE-Evo three-factor parent selection."),
  airaTemperature: z.number().positive().default(1).describe("AIRA-Evo softmax temperature over min-max fitness."),
  aide: z.object({
    numDrafts: z.number().int().positive().default(5).describe("Drafts before AIDE starts improving."),
    debugProb: z.number().min(0).max(1).default(0.5).describe("Probability of debugging a buggy leaf."),
    maxDebugDepth: z.number().int().nonnegative().default(3).describe("Only leaves with at most this debug depth are debugged."),
  }).strict().default({ numDrafts: 5, debugProb: 0.5, maxDebugDepth: 3 }).describe("AIDE greedy settings."),
  mcts: z.object({
    c: z.number().nonnegative().default(0.25).describe("Exploration constant of uct."),
    numDrafts: z.number().int().positive().default(5).describe("Children of the virtual root."),
    maxChildren: z.number().int().positive().default(3).describe("Children per node before the search descends through it."),
    maxDebugDepth: z.number().int().nonnegative().default(3).describe("Debug depth limit."),
  }).strict().default({ c: 0.25, numDrafts: 5, maxChildren: 3, maxDebugDepth: 3 }).describe("MCTS settings."),
  context: z.object({
    improveAncestors: z.number().int().nonnegative().default(3).describe("Improve: nearest ancestors shown."),
    improveSiblings: z.number().int().nonnegative().default(3).describe("Improve: top siblings shown."),
    crossoverAncestors: z.number().int().nonnegative().default(2).describe("Crossover: ancestors per parent."),
    crossoverSiblings: z.number().int().nonnegative().default(2).describe("Crossover: siblings per parent."),
    debugFailures: z.number().int().nonnegative().default(8).describe("Debug: earlier failures shown."),
  }).strict().default({ improveAncestors: 3, improveSiblings: 3, crossoverAncestors: 2, crossoverSiblings: 2, debugFailures: 8 }).describe("Operator-conditioned context sizes."),
  priors: z.boolean().default(false).describe("Evo-Max: show priors distilled from earlier runs' cards on other tasks of the workspace."),
}).strict();
export type EvolveConfig = z.infer<typeof EvolveConfig>;
export type EvolveConfigInput = z.input<typeof EvolveConfig>;
