// An experiment of the paper as data (issue 31): its arms, task set, budget, repeats and metrics per preset, the
// layout of its table or figure, and the paper's reference rows beside it (never as the kit's).
import { z } from "zod";

/** smoke: CI's check that it runs; quick: a comparison in minutes on built-in tasks with headroom, with a paired
 * interval; laptop: the corpus' dev suite, an hour or more; paper: the paper's scale (an endpoint and GPUs). */
export const REPRODUCE_PRESETS = ["smoke", "quick", "laptop", "paper"] as const;
export type ReproducePreset = (typeof REPRODUCE_PRESETS)[number];

/**
 * How an experiment produces its numbers. `search`: one evolve run per arm × task × repeat. `rl`: one trainRL run
 * per arm × repeat. `sft`: one collectSft over the task set per repeat. `funnel`: the corpus build.
 * `reference-only`: no kit arm (the coding-harness rows: there is no coding agent in the kit).
 */
export const EXPERIMENT_KINDS = ["search", "rl", "sft", "funnel", "reference-only"] as const;

/** One arm: who writes the programs, and how they are searched or trained. */
export const ArmSpec = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case words joined by '-'"),
    label: z.string().min(1).describe("The arm's name in the rendered table."),
    policy: z
      .string()
      .min(1)
      .optional()
      .describe(
        '"uniform" | "default" (the grammar policy\'s parameter sets), "loop:gN" (generation N of the loop in ' +
          'the experiment\'s workspace), a checkpoint name, or "endpoint:NAME" (an OpenAI-compatible model the ' +
          "paper preset serves); unset for the funnel.",
      ),
    harness: z
      .enum(["openmle", "aira-evo", "aide", "mcts"])
      .optional()
      .describe("Search harness of a `search` arm (unset for rl, sft and funnel arms)."),
    settings: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Overrides of the stage's own config (evolve, trainRL or collectSft), checked by its schema."),
    teacherEvolve: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "sft arms: overrides of evolve's config for the teacher's runs (the evolutionary path; steps come from " +
          "the preset, the seed from the repeat), checked by evolve's schema; e.g. the loop's 3 initial drafts, " +
          "so that 10 steps reach Crossover.",
      ),
  })
  .strict();
export type ArmSpec = z.infer<typeof ArmSpec>;

/** The tasks of one preset. */
export const TaskSet = z.discriminatedUnion("from", [
  z
    .object({ from: z.literal("builtin"), ids: z.array(z.string()).min(1) })
    .strict()
    .describe("Built-in tasks by id (the smoke preset: no corpus needed)."),
  z
    .object({
      from: z.literal("suite"),
      suite: z.enum(["train", "dev", "heldout"]),
      count: z.number().int().positive(),
    })
    .strict()
    .describe(
      "The first `count` tasks by id of a corpus suite (openmle task build-corpus); heldout is the old name of dev. " +
        "The sealed confirm suite runs only through openmle experiment.",
    ),
  z
    .object({ from: z.literal("mlebench-lite") })
    .strict()
    .describe("The 22 MLE-bench Lite competitions, imported with openmle task import-mlebench."),
  z
    .object({ from: z.literal("none") })
    .strict()
    .describe("No task set (the funnel builds its own)."),
]);
export type TaskSet = z.infer<typeof TaskSet>;

/** One preset of an experiment: everything its plan needs. */
export const ExperimentPreset = z
  .object({
    arms: z.array(ArmSpec).min(1),
    tasks: TaskSet,
    repeats: z.number().int().positive().describe("Independent runs per cell (avg@k)."),
    steps: z.number().int().positive().describe("Search steps per run, or trainer steps of an rl arm."),
    hoursPerTask: z.number().positive().optional().describe("Wall-clock budget of one search run (paper: 12 h)."),
    gpuCapGiB: z
      .number()
      .positive()
      .optional()
      .describe(
        "GPU memory the paper capped each program at (12 GB). Set: every execution gets one GPU (evolve's `gpus`); " +
          "the cap itself is not enforced by the kit (CUDA has no per-process memory limit outside MIG).",
      ),
    candidates: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        "funnel: ids of the candidates to build (a sample, as build-corpus --only); unset = the whole manifest.",
      ),
    source: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The source column of the kit's rows; unset: `kit (<preset>), exploratory`. A registration's view " +
          "(registered-view.ts) sets its label, e.g. `registered exp-1a2b3c4d5e6f`.",
      ),
    group: z.number().int().positive().default(1).describe("rl: programs per rollout group (G)."),
    groupsPerStep: z.number().int().positive().default(1).describe("rl: rollout groups per trainer step."),
  })
  .strict();
export type ExperimentPreset = z.infer<typeof ExperimentPreset>;

/** A row the paper printed, carried as reference: rendered with the label "paper (reference)" and never mixed in. */
export const ReferenceRow = z
  .object({
    row: z.string().min(1).describe("The row's setting as the paper names it."),
    values: z.record(z.string(), z.union([z.string(), z.number()])),
  })
  .strict();
export type ReferenceRow = z.infer<typeof ReferenceRow>;

export const ExperimentSpec = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    title: z.string().min(1),
    paperItem: z.string().min(1).describe("Where the paper reports it (table, figure or section; docs/paper-map.md)."),
    kind: z.enum(EXPERIMENT_KINDS),
    question: z.string().min(1).describe("What the kit's rows can answer, in one sentence."),
    metrics: z.array(z.string().min(1)).min(1).describe("The table's columns (metric ids of the kit)."),
    rows: z.enum(["arm", "modality", "grade", "operator", "stage"]).describe("What one row of the table is."),
    sharesCellsWith: z
      .string()
      .optional()
      .describe("Another experiment whose finished cells this one lays out differently (no runs of its own)."),
    layout: z
      .enum(["modality", "ceiling", "efficiency"])
      .optional()
      .describe(
        "How an experiment that shares another's cells lays them out (cell-layouts.ts, efficiency-table.ts): " +
          "per modality, by solution grade, or search efficiency from the runs' nodes and prompts.",
      ),
    laptopNote: z.string().optional().describe("What the laptop preset reports in place of the paper's metric."),
    presets: z
      .object({ smoke: ExperimentPreset, quick: ExperimentPreset, laptop: ExperimentPreset, paper: ExperimentPreset })
      .partial()
      .strict(),
    reference: z.array(ReferenceRow).min(1),
  })
  .strict()
  .superRefine((s, ctx) => {
    const presets = Object.entries(s.presets) as [ReproducePreset, ExperimentPreset][];
    if (s.kind === "reference-only" && presets.length)
      ctx.addIssue({ code: "custom", message: "a reference-only experiment has no presets" });
    if (s.kind === "reference-only" && s.sharesCellsWith)
      ctx.addIssue({ code: "custom", message: "a reference-only experiment shares no cells" });
    if (s.sharesCellsWith && presets.length)
      ctx.addIssue({
        code: "custom",
        message: "an experiment that lays out another's cells has no presets of its own",
      });
    if (!s.sharesCellsWith !== !s.layout)
      ctx.addIssue({
        code: "custom",
        message: "an experiment that shares another's cells names its layout, and only it",
      });
    if (s.kind !== "reference-only" && !s.sharesCellsWith && !s.presets.smoke)
      ctx.addIssue({ code: "custom", message: "every runnable experiment has a smoke preset (CI runs it)" });
    if ((s.kind === "search" || s.kind === "rl") && (s.presets.laptop?.repeats ?? 3) < 3)
      ctx.addIssue({ code: "custom", message: "the laptop preset reports avg@k with k ≥ 3" });
    for (const [name, p] of presets) {
      const ids = p.arms.map((a) => a.id);
      if (new Set(ids).size !== ids.length) ctx.addIssue({ code: "custom", message: `${name}: arm ids repeat` });
      if (s.kind === "search" && p.arms.some((a) => !a.harness))
        ctx.addIssue({ code: "custom", message: `${name}: every search arm names its harness` });
    }
  });
export type ExperimentSpec = z.infer<typeof ExperimentSpec>;
export type ExperimentSpecInput = z.input<typeof ExperimentSpec>;

/**
 * The source column of an experiment's kit rows at a preset: the preset's `source`, else `kit (<preset>),
 * exploratory` (every result that did not come from a registered experiment's run is exploratory).
 */
export const kitSource = (spec: ExperimentSpec, preset: ReproducePreset): string =>
  spec.presets[preset]?.source ?? `kit (${preset}), exploratory`;

/** How a title names the rows' origin: the preset's `source` (a registration's label), else `<preset> preset`. */
export const presetTitle = (spec: ExperimentSpec, preset: ReproducePreset): string =>
  spec.presets[preset]?.source ?? `${preset} preset`;
