import { z } from "zod";
import type { Modality, TaskType } from "../types.js";
import { FUNNEL_STAGES, type CorpusTask, type FunnelStage, type StageRecord } from "./types.js";

/**
 * The funnel table of a corpus build (the paper's Fig. 3), from its stage records and accepted tasks. Rules:
 *   1. export and frame are candidate-level stages and count candidates; build, quality, headroom and gate count
 *      framed tasks (`unit` says which). A task-level record's candidate still counts once toward keptCandidates.
 *   2. entered = records of the stage; passed / failed / skipped by status. A skipped stage did not run and the
 *      item goes on (the gate without an endpoint), so kept = entered − failed.
 *   3. keptShare = kept / entered; candidateShare = candidates with a kept item at the stage / all candidates
 *      (distinct candidates over every record): the paper's shares are of this kind.
 *   4. Rejection reasons (failed and skipped records) group by their leading words (reasonKey) and are counted,
 *      most frequent first, ties by key.
 *   5. The accepted tasks give the modality mix, task types, package-size and headroom quantiles, distinct
 *      studies, and the modalities of FUNNEL_MODALITIES with no accepted task (said, never faked).
 * Quantiles interpolate linearly between order statistics (R's type 7): q(p) = x[h] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[h]),
 * h = (n − 1)p, 0-based.
 */
export const FunnelConfig = z
  .object({
    topReasons: z.number().int().min(0).max(50).default(5).describe("Rejection reasons listed per stage."),
    reasonWords: z
      .number()
      .int()
      .min(1)
      .max(12)
      .default(4)
      .describe("Leading words of a reason that name its group (after cutting at a digit, colon, parenthesis …)."),
  })
  .strict();
export type FunnelConfig = z.infer<typeof FunnelConfig>;
export type FunnelConfigInput = z.input<typeof FunnelConfig>;

/** Modalities the funnel reports on, present or missing (the kit's Modality values except "other"). */
export const FUNNEL_MODALITIES = [
  "tabular",
  "time_series",
  "text",
  "image",
  "audio",
  "multimodal",
] as const satisfies readonly Modality[];

const CANDIDATE_STAGES: ReadonlySet<FunnelStage> = new Set(["export", "frame"]);

export interface ReasonCount {
  readonly reason: string;
  readonly count: number;
}

export interface FunnelStageRow {
  readonly stage: FunnelStage;
  readonly unit: "candidates" | "tasks";
  readonly entered: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** entered − failed. */
  readonly kept: number;
  /** kept / entered; null when nothing entered. */
  readonly keptShare: number | null;
  /** Distinct candidates with a kept item at this stage. */
  readonly keptCandidates: number;
  /** keptCandidates / all candidates; null without candidates. */
  readonly candidateShare: number | null;
  readonly reasons: readonly ReasonCount[];
}

export interface Quantiles {
  readonly min: number;
  readonly q25: number;
  readonly median: number;
  readonly q75: number;
  readonly max: number;
}

export interface MixRow<K extends string> {
  readonly key: K;
  readonly count: number;
  readonly share: number;
}

export interface FunnelTable {
  /** Distinct candidates over all records. */
  readonly candidates: number;
  readonly stages: readonly FunnelStageRow[];
  readonly accepted: {
    readonly tasks: number;
    readonly candidates: number;
    readonly studies: number;
    readonly synthesised: number;
    readonly modalities: readonly MixRow<Modality>[];
    readonly missingModalities: readonly Modality[];
    readonly taskTypes: readonly MixRow<TaskType>[];
    /** null with no accepted task. */
    readonly packageBytes: Quantiles | null;
    readonly headroom: Quantiles | null;
    /** Tasks per fifth of the normalised headroom, [0, 0.2) … [0.8, 1]; below 0 in the first, above 1 the last. */
    readonly headroomBins: readonly number[];
  };
}

/**
 * A reason's group: lower case, numbers written as N (so "144 rows, fewer than ..." and "98 rows, ..." group
 * together), commas dropped, cut at the first : ( [ ; = < > quote, its first `words` words.
 */
export function reasonKey(reason: string, words = 4): string {
  const numbered = reason.toLowerCase().replace(/[-+]?[0-9][0-9.]*(e[-+]?[0-9]+)?%?/g, "N");
  const head = numbered.replace(/,/g, " ").split(/[:([;=<>"'`]/)[0] ?? "";
  const key = head.trim().split(/\s+/).filter(Boolean).slice(0, words).join(" ");
  return key || "(no reason given)";
}

/** Linear-interpolation quantile (type 7) of sorted values. */
export function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function quantiles(values: readonly number[]): Quantiles | null {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return null;
  return { min: s[0]!, q25: quantile(s, 0.25), median: quantile(s, 0.5), q75: quantile(s, 0.75), max: s.at(-1)! };
}

const share = (k: number, n: number) => (n > 0 ? k / n : null);
const byCount = <T extends { key: string; count: number }>(a: T, b: T) => b.count - a.count || (a.key < b.key ? -1 : 1);

function mix<K extends string>(keys: readonly K[]): MixRow<K>[] {
  const counts = new Map<K, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count, share: count / keys.length })).sort(byCount);
}

function reasons(records: readonly StageRecord[], cfg: FunnelConfig): ReasonCount[] {
  const counts = new Map<string, number>();
  for (const r of records)
    if (r.status !== "pass")
      counts.set(reasonKey(r.reason, cfg.reasonWords), (counts.get(reasonKey(r.reason, cfg.reasonWords)) ?? 0) + 1);
  return [...counts]
    .map(([key, count]) => ({ key, count }))
    .sort(byCount)
    .slice(0, cfg.topReasons)
    .map(({ key, count }) => ({ reason: key, count }));
}

/** The funnel table (rules above). */
export function funnelTable(
  records: readonly StageRecord[],
  tasks: readonly CorpusTask[],
  config: FunnelConfigInput = {},
): FunnelTable {
  const cfg = FunnelConfig.parse(config);
  const candidates = new Set(records.map((r) => r.candidate)).size;
  const stages = FUNNEL_STAGES.map((stage): FunnelStageRow => {
    const rs = records.filter((r) => r.stage === stage);
    const passed = rs.filter((r) => r.status === "pass").length;
    const failed = rs.filter((r) => r.status === "fail").length;
    const skipped = rs.filter((r) => r.status === "skip").length;
    const keptCandidates = new Set(rs.filter((r) => r.status !== "fail").map((r) => r.candidate)).size;
    return {
      stage,
      unit: CANDIDATE_STAGES.has(stage) ? "candidates" : "tasks",
      entered: rs.length,
      passed,
      failed,
      skipped,
      kept: rs.length - failed,
      keptShare: share(rs.length - failed, rs.length),
      keptCandidates,
      candidateShare: share(keptCandidates, candidates),
      reasons: reasons(rs, cfg),
    };
  });
  const modalities = mix(tasks.map((t) => t.modality));
  const bins = [0, 0, 0, 0, 0];
  for (const t of tasks)
    if (Number.isFinite(t.headroom.normalised))
      bins[Math.min(4, Math.max(0, Math.floor(t.headroom.normalised * 5)))]! += 1;
  return {
    candidates,
    stages,
    accepted: {
      tasks: tasks.length,
      candidates: new Set(tasks.map((t) => t.candidate)).size,
      studies: new Set(tasks.map((t) => t.study)).size,
      synthesised: tasks.filter((t) => t.synthesised).length,
      modalities,
      missingModalities: FUNNEL_MODALITIES.filter((m) => !modalities.some((r) => r.key === m)),
      taskTypes: mix(tasks.map((t) => t.taskType)),
      packageBytes: quantiles(tasks.map((t) => t.packageBytes)),
      headroom: quantiles(tasks.map((t) => t.headroom.normalised)),
      headroomBins: bins,
    },
  };
}
