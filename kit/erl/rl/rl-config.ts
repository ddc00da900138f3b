import { z } from "zod";
import { AdaptiveBoundsOptions } from "./adaptive-bounds.js";
import { GapPenaltyOptions } from "./gap-penalty.js";
import { GspoOptions } from "./gspo-update.js";
import { TrivialWorstMode } from "./fixed-scale.js";
import { ParentBonusOptions } from "./parent-bonus.js";

/** Settings of trainRL (the paper's Fig. 6); every field has a default. `openmle config schema rl` prints them. */
export const RlConfig = z
  .object({
    steps: z.number().int().positive().default(4).describe("Policy updates to make (each stores a checkpoint)."),
    group: z.number().int().min(1).default(8).describe("Programs per rollout group (G)."),
    groupsPerStep: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Groups consumed per update (the batch); default one per task."),
    mode: z
      .enum(["async", "sync"])
      .default("async")
      .describe(
        "async: groups generate and execute independently, the trainer updates as soon as a batch of " +
          "completed groups is queued; sync: each step samples its whole batch from the current " +
          "policy and waits for all of it.",
      ),
    maxLag: z
      .number()
      .int()
      .min(0)
      .default(1)
      .describe(
        "Async: most policy versions a group may lag behind the trainer; older groups are dropped " +
          "(not re-weighted) and their task is sampled again.",
      ),
    inFlightGroups: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Async: groups kept generating/executing at once (default 2 × groupsPerStep)."),
    workers: z.number().int().positive().default(2).describe("Sandbox slots (concurrent program executions)."),
    seed: z.number().int().default(1).describe("Seeds operator, parent and program sampling."),
    operatorMix: z
      .object({
        draft: z.number().min(0).default(0.5).describe("Weight of Draft (weights are normalised)."),
        improve: z.number().min(0).default(0.17).describe("Weight of Improve (weights are normalised)."),
        debug: z.number().min(0).default(0.17).describe("Weight of Debug (weights are normalised)."),
        crossover: z.number().min(0).default(0.16).describe("Weight of Crossover (weights are normalised)."),
      })
      .strict()
      .prefault({})
      .describe(
        "Operator probabilities per group (reference RL runs: 0.50/0.17/0.17/0.16); " +
          "improve/debug/crossover fall back to draft while the parent store has no eligible program.",
      ),
    keepParents: z.number().int().positive().default(10).describe("Parent states kept per task (top by fitness)."),
    seedFromRuns: z
      .boolean()
      .default(true)
      .describe(
        "Seed the parent store from the workspace's earlier evolve runs of each task (else it fills " +
          "from the first drafts).",
      ),
    perRunTimeoutS: z.number().positive().default(120).describe("Sandbox wall-clock limit per program."),
    memoryMb: z.number().int().positive().default(4096).describe("Sandbox memory cap per program."),
    bounds: AdaptiveBoundsOptions.prefault({}).describe(
      "Adaptive reward bounds; static bounds: best = max(the metric's theoretical best, the leaderboard's best) " +
        "(the earlier kit: the gold threshold), worst = the leaderboard's last team when it has one.",
    ),
    trivialWorst: TrivialWorstMode,
    gap: GapPenaltyOptions.prefault({}).describe(
      "Validation–test gap penalty on positive rewards: off by default as in the reference's released RL " +
        "scripts; the paper's text (and the earlier kit) applied it ({ enabled: true }: 0.05 per 0.12 of gap).",
    ),
    parentBonus: ParentBonusOptions.prefault({}).describe(
      "Improve/Debug/Crossover candidates: + coefficient · max(0, r − r_parent) on the group's bounds, and 0 " +
        "for a copy of the parent's code (reference code; the paper's text and the earlier kit had neither).",
    ),
    hackReward: z.number().default(-0.5).describe("Reward of a program flagged by the judge or the submission check."),
    judgeTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(60_000)
      .describe("Limit of one judge call; a timeout lets the program run (recorded as judge error)."),
    gspo: GspoOptions.prefault({}).describe("The clipped sequence-level update (lr, ε, epochs)."),
  })
  .strict();
export type RlConfig = z.infer<typeof RlConfig>;
export type RlConfigInput = z.input<typeof RlConfig>;
