import { z } from "zod";
import { HeldOutSplitConfig } from "./held-out-split.js";

/** Settings of collectSft (docs/paper-map.md: SFT collection). Every field has a default. */
export const CollectSftConfig = z
  .object({
    perTaskCap: z
      .number()
      .int()
      .positive()
      .default(4)
      .describe("Parallel path: drafts kept per task (the joint top 4 by graded reward)."),
    batchSize: z
      .number()
      .int()
      .positive()
      .default(4)
      .describe("Parallel path: attempts per batch; a task is re-checked after each batch."),
    maxAttempts: z.number().int().positive().default(32).describe("Parallel path: attempt budget per task."),
    minAttempts: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe(
        "Parallel path: attempts made before a filled quota may stop a task, so the kept top perTaskCap are chosen " +
          "from at least this many (up to maxAttempts). 0 = the reference's rule: stop once perTaskCap are accepted, " +
          "which with a weak teacher keeps the first accepted drafts unranked.",
      ),
    maxSandboxS: z.number().min(0).default(1800).describe("Parallel path: sandbox-seconds budget per task (0 = none)."),
    concurrency: z
      .number()
      .int()
      .positive()
      .default(4)
      .describe("Parallel path: programs executed at once within a batch."),
    perRunTimeoutS: z.number().positive().default(300).describe("Time limit of one parallel-path program in seconds."),
    memoryMb: z.number().int().positive().default(4096).describe("Memory limit of one parallel-path program in MiB."),
    seed: z.number().int().default(0).describe("Seed of the parallel path's draws (one stream per task and attempt)."),
    thresholdTopShare: z
      .number()
      .gt(0)
      .max(1)
      .default(0.25)
      .describe(
        "Evolutionary path, tasks without a leaderboard: an endpoint must be among the best this " +
          "share of the run's valid scores.",
      ),
    medal: z
      .enum(["bronze", "silver", "gold"])
      .default("bronze")
      .describe("Evolutionary path, tasks with a leaderboard: the lowest medal an endpoint must reach."),
    maxValidationTestGap: z
      .number()
      .min(0)
      .nullable()
      .default(0.12)
      .describe(
        "Baseline filter (both paths): drop a draft or segment endpoint whose relative gap |test − valid| / scale " +
          "(scale = metric range ≤ 2, else leaderboard range, else max(|test|, |valid|)) exceeds this; " +
          "a missing printed validation or graded test score also drops it. null or 0 = off.",
      ),
    trivialFloor: z
      .boolean()
      .default(true)
      .describe(
        "Parallel path, tasks without a leaderboard: run kit/eval's trivial baseline (a constant prediction) once " +
          "per task and use its graded score as the reward's static worst bound, so a draft that does not beat " +
          "it gets reward 0 and is dropped (CSV tasks only; a failed baseline means no floor).",
      ),
    maxTokens: z
      .number()
      .int()
      .positive()
      .default(32_768)
      .describe("Drop examples whose Qwen3 chat-template token count exceeds this."),
  })
  .strict();
export type CollectSftConfig = z.infer<typeof CollectSftConfig>;
export type CollectSftConfigInput = z.input<typeof CollectSftConfig>;

/** Settings of SFT of the grammar policy (L_evo, w = 1). */
export const SftTrainConfig = z
  .object({
    epochs: z
      .number()
      .int()
      .positive()
      .default(10)
      .describe("Passes over the training examples (one full-batch step each)."),
    lr: z.number().positive().default(0.5).describe("Learning rate of the mean gradient of the log-likelihood."),
    heldOut: z
      .number()
      .min(0)
      .lt(1)
      .default(0.2)
      .describe(
        "Share of examples (of tasks with splitBy task) held out to measure log-likelihood on unseen programs " +
          "(0 = none).",
      ),
    seed: z.number().int().default(0).describe("Seed of the held-out split."),
    /** The held-out split's unit (held-out-split.ts). */
    splitBy: HeldOutSplitConfig.shape.by,
    earlyStopping: z
      .boolean()
      .default(true)
      .describe(
        "Keep the epoch (0 = the starting params) with the highest held-out log-likelihood: the regulariser " +
          "against the previous generation (needs heldOut > 0).",
      ),
    folds: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe(
        "1: early stopping reads one held-out split (heldOut). K ≥ 2: cross-validated early stopping: K folds " +
          "(of splitBy's unit) each held out once, the epoch chosen on their pooled held-out log-likelihood " +
          "(cv-epoch.ts), then the params retrained on all examples for that many epochs (heldOut is not used).",
      ),
    conditioned: z
      .boolean()
      .default(false)
      .describe(
        "Also learn the feature-conditioned rows (shared across modalities: what can move an unseen task's " +
          "modality); off by default, as measured in bench/erl/runs/2026-11-30-what-transfers.md.",
      ),
  })
  .strict()
  .refine((c) => c.folds === 1 || c.earlyStopping, {
    message: "folds ≥ 2 choose the epoch for early stopping: set earlyStopping, or folds 1",
    path: ["folds"],
  });
export type SftTrainConfig = z.infer<typeof SftTrainConfig>;
export type SftTrainConfigInput = z.input<typeof SftTrainConfig>;
