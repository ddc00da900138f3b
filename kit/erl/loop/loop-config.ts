import { z } from "zod";
import type { EvolveConfigInput } from "../../evo/index.js";
import type { CollectSftConfigInput, SftTrainConfigInput } from "../sft/sft-config.js";
import type { RlConfigInput } from "../rl/rl-config.js";

export const LOOP_PRESETS = ["smoke", "laptop", "paper"] as const;
export type LoopPreset = (typeof LOOP_PRESETS)[number];

/** The settings of every stage of one generation, per preset. */
export interface LoopStageSettings {
  /** Evolve on the training tasks and on the held-out tasks (same budget: equal-budget evaluation). */
  readonly evolve: EvolveConfigInput;
  readonly collect: CollectSftConfigInput;
  readonly sft: SftTrainConfigInput;
  readonly rl: RlConfigInput;
}

/**
 * Stage sizes per preset. `smoke`: a couple of programs per stage (CI, minutes); `laptop`: about an
 * hour on 2 cores for 6 training + 4 held-out tasks, 3 seeds, 2 generations; `paper`: the paper's
 * budgets (spec §3–§4) for a GPU box: the same stages, whose collectSft datasets and trainRL
 * rollouts are exported for an external trainer (kit/erl/README.md, "The closed loop").
 */
export const LOOP_PRESET_SETTINGS: Record<LoopPreset, LoopStageSettings> = {
  smoke: {
    evolve: { harness: "openmle", steps: 2, gen0Drafts: 2, perRunTimeoutS: 120, debugMaxAttempts: 0 },
    collect: { perTaskCap: 1, batchSize: 1, maxAttempts: 1, concurrency: 1, perRunTimeoutS: 120, maxSandboxS: 0 },
    sft: { epochs: 10, lr: 0.5, heldOut: 0 },
    rl: {
      steps: 1,
      group: 2,
      groupsPerStep: 1,
      mode: "sync",
      workers: 2,
      perRunTimeoutS: 120,
      operatorMix: { draft: 1, improve: 0, debug: 0, crossover: 0 },
    },
  },
  laptop: {
    evolve: { harness: "openmle", steps: 8, gen0Drafts: 4, perRunTimeoutS: 120, debugMaxAttempts: 2 },
    collect: { perTaskCap: 2, batchSize: 2, maxAttempts: 4, concurrency: 2, perRunTimeoutS: 120, maxSandboxS: 0 },
    sft: { epochs: 20, lr: 0.5, heldOut: 0.2 },
    rl: { steps: 2, group: 4, mode: "async", workers: 2, perRunTimeoutS: 120 },
  },
  paper: {
    evolve: { harness: "openmle", steps: 200, gen0Drafts: 5, perRunTimeoutS: 3600, workers: 8 },
    collect: { perTaskCap: 4, batchSize: 4, maxAttempts: 32, concurrency: 8, perRunTimeoutS: 3600, maxSandboxS: 0 },
    sft: { epochs: 20, lr: 1, heldOut: 0.2 },
    rl: { steps: 50, group: 8, mode: "async", workers: 16, perRunTimeoutS: 3600 },
  },
};

/** Settings of loop() (`openmle config schema loop`). Stage overrides are merged over the preset and checked by each
 * stage's own schema. */
export const LoopConfig = z
  .object({
    preset: z
      .enum(LOOP_PRESETS)
      .default("smoke")
      .describe(
        "Stage sizes: smoke (CI, minutes), laptop (about an hour on 2 cores), paper (GPU box; see " +
          "the hand-off in kit/erl/README.md).",
      ),
    generations: z
      .number()
      .int()
      .min(0)
      .default(1)
      .describe("Generations to train: checkpoint k → checkpoint k+1, k = 0 … generations−1."),
    seeds: z
      .array(z.number().int())
      .min(1)
      .default([1])
      .describe("Evolve seeds: every training and held-out task runs once per seed."),
    from: z
      .string()
      .default("default")
      .describe('Generation 0\'s policy: "default", a checkpoint name or a params .json file.'),
    evolve: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Overrides of the preset's evolve settings (openmle config schema evolve)."),
    collect: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Overrides of the preset's collectSft settings (openmle config schema collectSft)."),
    sft: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Overrides of the preset's SFT settings (openmle config schema sftTrain)."),
    rl: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Overrides of the preset's trainRL settings (openmle config schema rl)."),
    baselines: z
      .boolean()
      .default(true)
      .describe("Run kit/eval's trivial and reference baselines on each held-out task for the normalised score."),
  })
  .strict();
export type LoopConfig = z.infer<typeof LoopConfig>;
export type LoopConfigInput = z.input<typeof LoopConfig>;

/** The effective settings of each stage: the preset's, overridden by the config's. */
export function stageSettings(cfg: LoopConfig): LoopStageSettings {
  const p = LOOP_PRESET_SETTINGS[cfg.preset];
  return {
    evolve: { ...p.evolve, ...(cfg.evolve as EvolveConfigInput) },
    collect: { ...p.collect, ...(cfg.collect as CollectSftConfigInput) },
    sft: { ...p.sft, ...(cfg.sft as SftTrainConfigInput) },
    rl: { ...p.rl, ...(cfg.rl as RlConfigInput) },
  };
}
