import { z } from "zod";

/** How test rows are chosen. Every kind is deterministic given the seed. */
export const SplitSpec = z.object({
  kind: z
    .enum(["random", "stratified", "time", "group"])
    .default("random")
    .describe(
      "random rows; stratified by target class; time: the latest rows by timeColumn; group: whole " +
        "groups of groupColumn",
    ),
  testSize: z.number().gt(0).lt(1).default(0.2).describe("share of rows (or of groups' rows) that go to the test set"),
  seed: z.number().int().default(42).describe("seed of the split, the subsample and the generated ids"),
  timeColumn: z.string().optional().describe("column ordering rows in time (kind time)"),
  groupColumn: z.string().optional().describe("column whose values must not straddle the split (kind group)"),
});

/** What buildTask needs to turn a raw table (plus optional asset files) into a task package. */
export const TaskSpec = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]*$/, "lowercase letters, digits, '-', '_' or '.'")
    .describe("task id (folder-safe)"),
  name: z.string().default("").describe("human name; defaults to the id"),
  description: z.string().default("").describe("what the task is about, for description.txt"),
  modality: z
    .enum(["tabular", "image", "text", "time_series", "audio", "multimodal", "other"])
    .default("tabular")
    .describe("data modality"),
  table: z.string().describe("raw table: a CSV, JSON (array of records) or JSONL file"),
  filesDir: z.string().optional().describe("folder of raw asset files (images, audio, text) referenced by fileColumn"),
  fileColumn: z.string().optional().describe("column of the table with file paths relative to filesDir"),
  target: z.string().describe("target column of the table"),
  idColumn: z
    .string()
    .optional()
    .describe(
      "a column of the table, unique per row, used as the id; omitted: ids are generated (random integers) into " +
        "`id`, or `row_id` when the table has a column `id` (which then stays a feature)",
    ),
  drop: z.array(z.string()).default([]).describe("columns to drop (identifiers that leak, copies of the target)"),
  metric: z.string().describe("a metric of the registry (kit/gym/metrics/registry.ts)"),
  k: z.number().int().positive().default(3).describe("k of map_at_k"),
  positiveClass: z.string().optional().describe("positive class of a binary roc_auc task (default: the larger label)"),
  split: SplitSpec.prefault({}).describe("the train/test split"),
  maxRows: z.number().int().positive().optional().describe("deterministic subsample of the rows (by seed)"),
  source: z.string().default("").describe("where the raw data comes from"),
  licence: z.string().default("").describe("licence of the raw data"),
});
export type TaskSpec = z.output<typeof TaskSpec>;
export type TaskSpecInput = z.input<typeof TaskSpec>;
export type SplitSpec = z.output<typeof SplitSpec>;
