// An experiment's plan (issue 60): what runs, on which tasks, measured how, decided by which rule fixed in advance.
// A plan file is snake_case JSON (like every file the kit reads); in TypeScript it is the camelCase ExperimentPlan.
// `ResolvedPlan` is what registration stores: every name resolved to what it meant then (task ids and package
// hashes, checkpoint params hashes, the kit's commit), so the plan hash pins the experiment.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { HARNESSES } from "../evo/index.js";
import { camelKeys, readBoundedText } from "../util/index.js";
import { PlanError } from "./errors.js";

/** The measures a plan may name (kit/experiment/arm-measures.ts computes each). */
export const MEASURES = [
  "medal_average",
  "human_rank",
  "win_rate",
  "valid_rate",
  "normalized",
  "median_score",
] as const;
export type Measure = (typeof MEASURES)[number];

/** The built-in grammar params sets (kit/erl BUILTIN_PARAMS): no workspace, no file. */
export const BUILTIN_PARAM_SETS = ["uniform", "default", "default@1"] as const;

/** Search harnesses: kit/evo's, and `evo-max` = openmle with cross-task priors and EVO_MAX_WORKERS async workers. */
export const SEARCH_HARNESSES = [...HARNESSES, "evo-max"] as const;
export type SearchHarness = (typeof SEARCH_HARNESSES)[number];
/** Evo-Max's async workers (kit/reproduce's laptop preset of the harness experiment uses 2). */
export const EVO_MAX_WORKERS = 2;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const PlanArm = z
  .object({
    /** The arm's name in the plan, the decision rule and the results (letters, digits, . _ -). */
    name: z.string().regex(NAME, "use letters, digits, . _ - (starting with a letter or digit)"),
    /** A built-in grammar params set. */
    params: z.enum(BUILTIN_PARAM_SETS).optional(),
    /** A policy_checkpoints name of the workspace: registration stores its params hash. */
    checkpoint: z.string().min(1).optional(),
    /** A grammar params JSON file: registration stores its params hash. */
    paramsFile: z.string().min(1).optional(),
    /** An OpenAI-compatible endpoint (the key from OPENAI_API_KEY or --api-key-env at run time). */
    llm: z
      .object({ baseUrl: z.string().url(), model: z.string().min(1) })
      .strict()
      .optional(),
    /** Search level only: the harness (default openmle). */
    harness: z.enum(SEARCH_HARNESSES).optional(),
  })
  .strict()
  .describe("One arm: exactly one of params, checkpoint, params_file, llm; harness at the search level.");
export type PlanArm = z.infer<typeof PlanArm>;

export const PlanLevel = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("drafts"),
      /** Fresh Drafts per task and arm; draw i is seeded keyedSeed(seed, "<task>#<i>"), the same for every arm. */
      draws: z.number().int().min(1).max(10_000).default(32),
    })
    .strict(),
  z
    .object({
      kind: z.literal("search"),
      /** Evolve runs per task and arm, seeds 1…seeds (the same seeds for every arm). */
      seeds: z.number().int().min(1).max(1_000).default(4),
      /** Step budget of each run. */
      steps: z.number().int().min(1).max(100_000).default(16),
    })
    .strict(),
]);
export type PlanLevel = z.infer<typeof PlanLevel>;

export const DecisionRule = z
  .object({
    /** The measure the decision reads (one of the plan's measures). */
    measure: z.enum(MEASURES),
    /** [A, B]: the claim is about A − B (arm names). */
    comparison: z.tuple([z.string(), z.string()]),
    /** Paired percentile bootstrap over tasks of the per-task difference (kit/eval pairedBootstrap). */
    test: z.literal("paired-bootstrap").default("paired-bootstrap"),
    /** Error rate: two-sided uses the (α/2, 1 − α/2) interval, one-sided the α or 1 − α bound. */
    alpha: z.number().gt(0).lt(0.5).default(0.05),
    /** greater: A − B > 0 is the claim; less: A − B < 0; two-sided: either. */
    direction: z.enum(["greater", "less", "two-sided"]).default("greater"),
  })
  .strict();
export type DecisionRule = z.infer<typeof DecisionRule>;

export const ExperimentPlan = z
  .object({
    /** A short name (shown by `openmle experiment list`). */
    name: z.string().regex(NAME, "use letters, digits, . _ - (starting with a letter or digit)"),
    /** The question the experiment answers, in words. */
    question: z.string().min(1),
    /** Two or more arms with distinct names. */
    arms: z.array(PlanArm).min(2),
    /** Task-list items as the task flags take them: ids, package folders, suite:NAME (resolved at registration). */
    tasks: z.array(z.string().min(1)).min(1),
    /** Policy level (fresh drafts) or search level (evolve runs). */
    level: PlanLevel.default({ kind: "drafts", draws: 32 }),
    /** Seed of the draws (drafts) and of the decision's bootstrap. */
    seed: z.number().int().default(1),
    /** What the results report per arm. */
    measures: z.array(z.enum(MEASURES)).min(1).default(["medal_average", "human_rank", "win_rate", "valid_rate"]),
    /** The rule fixed in advance that says whether the claim holds. */
    decision: DecisionRule,
    /** Time limit of one program in seconds. */
    timeoutS: z.number().positive().max(86_400).default(300),
    /** Memory cap of one program in MiB. */
    memoryMb: z.number().int().min(32).default(4096),
    /** Programs in flight (drafts) or evolve workers (search); `--jobs` may override it for one run. */
    concurrency: z.number().int().min(1).max(64).default(1),
  })
  .strict()
  .superRefine((p, ctx) => {
    const names = p.arms.map((a) => a.name);
    for (const [i, a] of p.arms.entries()) {
      const kinds = (["params", "checkpoint", "paramsFile", "llm"] as const).filter((k) => a[k] !== undefined);
      if (kinds.length !== 1)
        ctx.addIssue({
          code: "custom",
          path: ["arms", i],
          message: "give exactly one of params, checkpoint, params_file, llm",
        });
      if (names.indexOf(a.name) !== i) ctx.addIssue({ code: "custom", path: ["arms", i, "name"], message: "twice" });
      if (a.harness && p.level.kind !== "search")
        ctx.addIssue({ code: "custom", path: ["arms", i, "harness"], message: "a harness needs level.kind search" });
    }
    for (const arm of p.decision.comparison)
      if (!names.includes(arm))
        ctx.addIssue({ code: "custom", path: ["decision", "comparison"], message: `no arm named ${arm}` });
    if (p.decision.comparison[0] === p.decision.comparison[1])
      ctx.addIssue({ code: "custom", path: ["decision", "comparison"], message: "compare two different arms" });
    if (!p.measures.includes(p.decision.measure))
      ctx.addIssue({ code: "custom", path: ["measures"], message: `add the decision's ${p.decision.measure}` });
  });
export type ExperimentPlan = z.infer<typeof ExperimentPlan>;
export type ExperimentPlanInput = z.input<typeof ExperimentPlan>;

/** An arm's policy as registration resolved it. */
export const ArmPolicy = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("params"), name: z.enum(BUILTIN_PARAM_SETS) }).strict(),
  z.object({ kind: z.literal("checkpoint"), name: z.string(), paramsHash: z.string() }).strict(),
  z.object({ kind: z.literal("paramsFile"), path: z.string(), paramsHash: z.string() }).strict(),
  z.object({ kind: z.literal("llm"), baseUrl: z.string(), model: z.string() }).strict(),
]);
export type ArmPolicy = z.infer<typeof ArmPolicy>;

export const ResolvedArm = z
  .object({
    name: z.string(),
    policy: ArmPolicy,
    /** Search level: the harness (openmle when the plan gave none); null at the drafts level. */
    harness: z.enum(SEARCH_HARNESSES).nullable(),
    /** Task ids the arm's policy was trained on (its checkpoint lineage); "unknown" when not derivable. */
    trainingTasks: z.union([z.array(z.string()), z.literal("unknown")]),
  })
  .strict();
export type ResolvedArm = z.infer<typeof ResolvedArm>;

export const ResolvedTask = z
  .object({
    id: z.string(),
    /** kit/gym packageHash of the package at registration; a run refuses a package that changed. */
    packageHash: z.string(),
    /** leaderboardHash of the task's leaderboard at registration (null: none); a run refuses one that changed. */
    leaderboardHash: z.string().nullable(),
    /** The task's study (corpus index); a built-in task or a folder is its own study. */
    study: z.string(),
    /** What resolveTask takes: the id, or the package folder's absolute path (left out of the plan hash). */
    ref: z.string(),
  })
  .strict();
export type ResolvedTask = z.infer<typeof ResolvedTask>;

/** The plan as registered: every name resolved, what the plan hash covers. */
export const ResolvedPlan = z
  .object({
    name: z.string(),
    question: z.string(),
    arms: z.array(ResolvedArm),
    /** The plan's task items as written, and what they resolved to (ids in that order). */
    taskItems: z.array(z.string()),
    tasks: z.array(ResolvedTask),
    level: PlanLevel,
    seed: z.number().int(),
    measures: z.array(z.enum(MEASURES)),
    decision: DecisionRule,
    timeoutS: z.number(),
    memoryMb: z.number().int(),
    concurrency: z.number().int(),
    /** The kit's git commit at registration ("unknown" outside a checkout). */
    kitCommit: z.string(),
  })
  .strict();
export type ResolvedPlan = z.infer<typeof ResolvedPlan>;

const issues = (e: z.ZodError) =>
  e.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");

/** A plan from parsed JSON (snake_case or camelCase keys); PlanError names the first issues. */
export function parsePlan(json: unknown, source = "the plan"): ExperimentPlan {
  const parsed = ExperimentPlan.safeParse(camelKeys(json));
  if (!parsed.success)
    throw new PlanError(`${source} is not an experiment plan: ${issues(parsed.error)} (kit/experiment/README.md)`);
  return parsed.data;
}

/** A plan file (JSON, at most 1 MiB); PlanError when it is missing, not JSON or not a plan. */
export function readPlanFile(path: string): ExperimentPlan {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new PlanError(`no plan file at ${abs}: pass the path of a plan JSON file`);
  let json: unknown;
  try {
    json = JSON.parse(readBoundedText(abs, 1 << 20));
  } catch (e) {
    throw new PlanError(`${abs} is not valid JSON (${(e as Error).message}): fix the file and register again`);
  }
  return parsePlan(json, abs);
}

/** A stored plan read back (experiments.plan); a row that is not one is a broken workspace. */
export function parseResolvedPlan(text: string, registrationId: string): ResolvedPlan {
  const parsed = ResolvedPlan.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new PlanError(`registration ${registrationId}'s stored plan is not readable: ${issues(parsed.error)}`);
  return parsed.data;
}
