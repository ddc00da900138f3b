import { z } from "zod";
import type { EvolveConfigInput } from "../../evo/index.js";
import type { CollectSftConfigInput, SftTrainConfigInput } from "../sft/sft-config.js";
import type { RlConfigInput } from "../rl/rl-config.js";

export const LOOP_PRESETS = ["smoke", "laptop", "workstation", "paper"] as const;
export type LoopPreset = (typeof LOOP_PRESETS)[number];

/** The two held-out measures of every generation (issue 30 item 4), at equal budget and identical draws. */
export const HeldoutSettings = z
  .object({
    drafts: z
      .number()
      .int()
      .min(0)
      .default(8)
      .describe("Policy level: fresh Drafts per held-out task, executed and graded (0 = off)."),
    draftSeed: z.number().int().default(1).describe("Seed of those drafts' draws (the same for every generation)."),
    searchTasks: z
      .number()
      .int()
      .min(0)
      .default(10)
      .describe(
        "Search level: evolve N held-out tasks (0 = all of them): those with a normalised score first, then by id.",
      ),
    seeds: z.array(z.number().int()).min(1).default([1, 2]).describe("Search level: evolve seeds per task."),
    steps: z.number().int().positive().default(6).describe("Search level: steps of each OpenMLE-Evo run."),
  })
  .strict();
export type HeldoutSettings = z.infer<typeof HeldoutSettings>;

/** The settings of every stage of one generation, per preset. */
export interface LoopStageSettings {
  /** Evolve on the training tasks; the held-out search runs use it with `heldout.steps`. */
  readonly evolve: EvolveConfigInput;
  readonly collect: CollectSftConfigInput;
  readonly sft: SftTrainConfigInput;
  readonly rl: RlConfigInput;
  readonly heldout: z.input<typeof HeldoutSettings>;
  /** Evolve seeds of the training tasks (LoopConfig.seeds overrides). */
  readonly seeds: readonly number[];
}

/**
 * Stage sizes per preset. `smoke`: a couple of programs per stage (CI, minutes). `laptop`: one generation within an
 * hour on 2 cores for 60 training tasks (suite:train) and 20 held-out tasks (suite:dev). Programs per generation
 * at most: evolve 60 tasks × 2 seeds × 10 steps = 1,200, collect 60 × 12 attempts = 720, RL 12 steps × 4 groups × 8
 * = 384, held-out drafts 20 × 8 = 160, held-out search 10 tasks × 2 seeds × 6 steps = 120, plus the once-per-loop
 * baselines (2 programs per held-out task). Measured with the warm start on 2 cores
 * (bench/erl/runs/2026-12-05-learning-05-run5-arm-a.md, loop learn-1b3c0d9d): evolve 13.7 / 14.8 min, collect
 * 9.8 / 9.2, SFT < 0.1, RL 8.4 / 7.2, held-out 4.7 / 3.9 / 3.3: ≈ 36 min per generation, and 304 / 319 SFT examples
 * (Draft ≈ 65 %, Improve ≈ 29 %, Crossover ≈ 6 %; no Debug segment: the grammar policy's programs rarely fail). 30
 * training tasks gave ≈ 125 examples; 3 generation-0 drafts and 10 steps reach loop generation 2, where Crossover
 * starts. Step sizes (laptop and workstation), chosen on the training side only (bench/erl/step-size.ts,
 * bench/erl/runs/2026-12-05-learning-08-step-sizes.md): SFT lr 2 for up to 200 epochs, so early stopping on the SFT
 * data's held-out split picks the epoch (it kept 42 and 28; 20 epochs at lr 0.5 had stopped while that split still
 * improved); GSPO lr 8, the largest of 1, 2, 4, 8, 16 whose replayed updates stay under a mean KL of 1e-2 nats per
 * decision (3.1e-3 and 4.7e-3; at lr 1, 12 steps moved the policy 6e-4 in all).
 * Since the ninth run (bench/erl/runs/2026-12-05-learning-13-run9-arm-a.md): collect makes all 12 attempts per
 * task and keeps the top 4 (minAttempts; the reference's stop-at-4-accepted kept the first batch unranked on 18 of 45
 * tasks), and SFT's early stopping holds out 20 % of the training tasks rather than of the examples (splitBy task:
 * replayed on the seventh run's data it stops at epoch 27 where the example split stops at 67, because unseen tasks
 * stop gaining sooner than unseen examples of seen tasks). Collect grows to 720 programs: the ninth run's
 * generation-1 collect ran 611 new ones in 16.9 min (≈ 1.7 s each, 2 at a time), so ≈ 20 min from scratch and
 * ≈ 46 min per generation.
 * Since 2026-12-06 (bench/erl/runs/2026-12-06-learning-22-why-arm-b.md): SFT's early stopping reads 5 folds
 * of the training tasks (folds 5, kit/erl crossValidatedEpoch) instead of one 20 % split. With one split the kept
 * epoch swung from 0 to 34, and from 10 to 200, with the split's seed on the same data; in nested cross-validation on
 * the four datasets of the tenth and ninth runs, 5 folds gave the larger log-likelihood gain on unseen training tasks
 * in every one, with a spread over seeds of under 0.03 nats. The SFT stage costs 6 trainings instead of 1 (seconds).
 * Measured at this recipe on the project's shared 2-core machines, other jobs beside them: 51 and 55 min per
 * generation (tenth run), 74 and 62 (eleventh; its first generation beside the CI suite); evolve 16–30 min, collect
 * 21–24, RL 7–14, held-out 4–9: over the hour on a loaded machine; this recipe has not been timed on a quiet one.
 * `workstation`: a night on 16 cores (16 workers) for 60 training tasks and 24 held-out tasks, about 9,900 programs
 * per generation (arithmetic, not run).
 * `paper`: the paper's budgets (docs/paper-map.md) for a GPU box: the same stages, whose collectSft datasets and
 * trainRL rollouts are exported for an external trainer (kit/erl/README.md, "The closed loop").
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
    heldout: { drafts: 2, searchTasks: 0, seeds: [1], steps: 2 },
    seeds: [1],
  },
  laptop: {
    evolve: { harness: "openmle", steps: 10, gen0Drafts: 3, perRunTimeoutS: 120, debugMaxAttempts: 2, workers: 2 },
    collect: {
      perTaskCap: 4,
      batchSize: 4,
      maxAttempts: 12,
      minAttempts: 12,
      concurrency: 2,
      perRunTimeoutS: 120,
      maxSandboxS: 0,
    },
    sft: { epochs: 200, lr: 2, heldOut: 0.2, splitBy: "task", folds: 5 },
    rl: { steps: 12, group: 8, groupsPerStep: 4, mode: "async", workers: 2, perRunTimeoutS: 120, gspo: { lr: 8 } },
    heldout: { drafts: 8, searchTasks: 10, seeds: [1, 2], steps: 6 },
    seeds: [1, 2],
  },
  workstation: {
    evolve: { harness: "openmle", steps: 24, gen0Drafts: 5, perRunTimeoutS: 600, workers: 16 },
    collect: { perTaskCap: 4, batchSize: 4, maxAttempts: 32, concurrency: 16, perRunTimeoutS: 600, maxSandboxS: 0 },
    sft: { epochs: 200, lr: 2, heldOut: 0.2 },
    rl: { steps: 40, group: 8, groupsPerStep: 8, mode: "async", workers: 16, perRunTimeoutS: 600, gspo: { lr: 8 } },
    heldout: { drafts: 16, searchTasks: 20, seeds: [1, 2, 3], steps: 12 },
    seeds: [1, 2, 3],
  },
  paper: {
    evolve: { harness: "openmle", steps: 200, gen0Drafts: 5, perRunTimeoutS: 3600, workers: 8 },
    collect: { perTaskCap: 4, batchSize: 4, maxAttempts: 32, concurrency: 8, perRunTimeoutS: 3600, maxSandboxS: 0 },
    sft: { epochs: 20, lr: 1, heldOut: 0.2 },
    rl: { steps: 50, group: 8, mode: "async", workers: 16, perRunTimeoutS: 3600 },
    heldout: { drafts: 8, searchTasks: 0, seeds: [1, 2, 3], steps: 200 },
    seeds: [1, 2, 3],
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
        "Stage sizes: smoke (CI, minutes), laptop (51–74 min per generation measured, 60 training tasks, 2 cores), " +
          "workstation (a night on 16 cores), paper (GPU box; see the hand-off in kit/erl/README.md).",
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
      .optional()
      .describe("Evolve seeds of the training tasks (default: the preset's); held-out seeds are heldout.seeds."),
    from: z
      .string()
      .default("default")
      .describe(
        'Generation 0\'s policy: "uniform" (every logit 0: the stand-in for a base model), "default" (the ' +
          "hand-set params), a checkpoint name or a params .json file.",
      ),
    teacher: z
      .string()
      .optional()
      .describe(
        "Who writes the SFT data (its evolve trees and parallel drafts on the training tasks) of the first " +
          'teacherGenerations generations: "default", a checkpoint or a params .json file (the stand-in for ' +
          "distilling a stronger model); unset, or after those generations: the current generation itself.",
      ),
    teacherGenerations: z
      .number()
      .int()
      .min(0)
      .default(1)
      .describe("How many generations (from 0) learn from `teacher`; later ones teach themselves."),
    heldout: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Overrides of the preset's held-out measures (drafts, draftSeed, searchTasks, seeds, steps)."),
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

/** A loop's settings after the config's overrides: the held-out measures parsed (defaults filled). */
export type EffectiveStageSettings = Omit<LoopStageSettings, "heldout"> & { readonly heldout: HeldoutSettings };

type Settings = Readonly<Record<string, unknown>>;
const isPlain = (v: unknown): v is Settings => typeof v === "object" && v !== null && !Array.isArray(v);

/** b over a; a nested object of b (e.g. `rl.gspo`) goes over a's key by key, so `{gspo: {epsilon}}` keeps the lr. */
function overlay<T>(a: T, b: Settings): T {
  const out: Record<string, unknown> = { ...(a as Settings) };
  for (const [k, v] of Object.entries(b)) {
    const under = out[k];
    out[k] = isPlain(v) && isPlain(under) ? { ...under, ...v } : v;
  }
  return out as T;
}

/** The effective settings of each stage: the preset's, overridden by the config's (nested objects key by key). */
export function stageSettings(cfg: LoopConfig): EffectiveStageSettings {
  const p = LOOP_PRESET_SETTINGS[cfg.preset];
  return {
    evolve: overlay(p.evolve, cfg.evolve),
    collect: overlay(p.collect, cfg.collect),
    sft: overlay(p.sft, cfg.sft),
    rl: overlay(p.rl, cfg.rl),
    heldout: HeldoutSettings.parse(overlay(p.heldout, cfg.heldout)),
    seeds: cfg.seeds ?? p.seeds,
  };
}

/**
 * The config with the preset's settings written out as overrides: what a new loop stores, so a resume runs with the
 * settings the loop started with even after a preset is retuned (stageSettings gives the same for both).
 */
export function frozenConfig(cfg: LoopConfig): LoopConfig {
  const s = stageSettings(cfg);
  return {
    ...cfg,
    evolve: { ...s.evolve },
    collect: { ...s.collect },
    sft: { ...s.sft },
    rl: { ...s.rl },
    heldout: { ...s.heldout },
    seeds: [...s.seeds],
  };
}
