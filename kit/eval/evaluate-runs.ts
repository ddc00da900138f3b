import { gradeScore, type CompetitionReport } from "./grade-score.js";
import type { Leaderboard } from "./leaderboard.js";
import { meanStd, type MeanStd } from "./mean-std.js";
import { normalizedScore, weakReference } from "./normalized-score.js";

/** One finished search run reduced to what evaluation needs (see load-run-outcomes.ts). */
export interface RunOutcome {
  readonly run_id: string;
  readonly task_id: string;
  readonly harness: string;
  /** The policy that wrote the programs: its name carries the model ("llm:<model>") or checkpoint
   * ("grammar:<checkpoint>" or "grammar@<params hash>"). */
  readonly policy: string;
  readonly config_hash: string;
  readonly seed: number | null;
  readonly modality: string;
  readonly higher_is_better: boolean;
  /** The final (held-out test) score of the run's champion; null = no valid submission. */
  readonly score: number | null;
  readonly submission_exists: boolean;
}

/** A run's grade; "ungraded" = a valid submission on a task without a leaderboard. */
export type Grade = "gold" | "silver" | "bronze" | "none" | "invalid" | "ungraded";

export interface GradedRun extends RunOutcome {
  readonly group: string;
  readonly grade: Grade;
  /** MLE-bench report when the task has a leaderboard. */
  readonly report: CompetitionReport | null;
  readonly human_rank: number | null;
  /** (score − trivial)/(reference − trivial) clipped to [−1, 2] when baselines are given (normalized-score.ts). */
  readonly normalized: number | null;
  /**
   * The task's reference closes less than 10 % of the way from the trivial score to the metric's perfect one, so
   * its normalised score means little (weakReference); null without baselines or a known perfect score.
   */
  readonly weak_reference: boolean | null;
}

export interface EvaluateOptions {
  /** Leaderboard per task id (tasks without one get no medals/Human Rank, only the normalised score). */
  readonly leaderboards?: ReadonlyMap<string, Leaderboard> | Record<string, Leaderboard>;
  /** Where evaluate() reads corpus leaderboards when `leaderboards` is not given (default data/corpus-leaderboards). */
  readonly corpusLeaderboardsDir?: string;
  /**
   * Baseline scores per task id for the normalised score; `higher_is_better` (when given) overrides the
   * direction read from the tasks table (runs whose task has no tasks row default to higher-is-better);
   * `perfect` (the metric's perfect score, e.g. 1 for accuracy, 0 for RMSE) sets the weak-reference flag.
   */
  readonly baselines?: Record<
    string,
    {
      readonly trivial: number;
      readonly reference: number;
      readonly higher_is_better?: boolean;
      readonly perfect?: number | null;
    }
  >;
}

export interface TaskRow {
  readonly group: string;
  readonly task_id: string;
  readonly modality: string;
  readonly runs: number;
  readonly valid_rate: number;
  readonly medal_rate: number | null;
  readonly human_rank: number | null;
  /** Mean normalised score of the task's runs (secondary to the leaderboard measures). */
  readonly normalized: number | null;
  /** The task's weak-reference flag (see GradedRun.weak_reference). */
  readonly weak_reference: boolean | null;
}

export interface GroupRow {
  /** harness + policy (model or checkpoint) + config hash: runs of one group are independent repeats of one setting. */
  readonly group: string;
  readonly harness: string;
  readonly policy: string;
  readonly config_hash: string;
  readonly tasks: number;
  /** k of avg@k: the smallest number of runs any task of the group has. */
  readonly k: number;
  readonly valid_rate: MeanStd;
  readonly medal_average: MeanStd;
  readonly human_rank: MeanStd;
  readonly normalized: MeanStd;
  readonly grades: Record<Grade, number>;
  readonly modality: readonly {
    modality: string;
    tasks: number;
    runs: number;
    medal_rate: number | null;
    valid_rate: number;
  }[];
}

export interface Evaluation {
  readonly runs: readonly GradedRun[];
  readonly tasks: readonly TaskRow[];
  readonly groups: readonly GroupRow[];
  /** What the loader left out and why (e.g. a corpus leaderboard built on another package); absent: none. */
  readonly warnings?: readonly string[];
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The group of a run: `harness/policy:config-hash-prefix`. */
export const groupKey = (o: Pick<RunOutcome, "harness" | "policy" | "config_hash">): string =>
  `${o.harness}/${o.policy}:${o.config_hash.slice(0, 8)}`;

function gradeOf(r: CompetitionReport | null, valid: boolean): Grade {
  if (!valid) return "invalid";
  if (!r) return "ungraded";
  return r.gold_medal ? "gold" : r.silver_medal ? "silver" : r.bronze_medal ? "bronze" : "none";
}

/**
 * Evaluate runs (pure). Steps:
 * 1. grade each run's final score (MLE-bench rules when the task has a leaderboard; normalised score when baselines are
 * given);
 * 2. group runs by harness + policy (model or checkpoint) + config hash, so runs of one harness with
 *    different policies are never pooled as repeats; within a group and task, order runs by seed then id: the i-th run
 * is replicate i;
 * 3. per replicate i, average each metric over the group's tasks; avg@k = mean ± std over the replicates
 *    (Valid Rate = share of tasks with a valid submission, Medal Average = share with any medal over tasks with a
 *    leaderboard, Human Rank = mean share of teams beaten, an invalid run counting 0);
 * 4. grade distribution and per-modality medal rates count every run of the group.
 */
export function evaluateRuns(outcomes: readonly RunOutcome[], opts: EvaluateOptions = {}): Evaluation {
  const lbs = opts.leaderboards instanceof Map ? opts.leaderboards : new Map(Object.entries(opts.leaderboards ?? {}));
  const runs: GradedRun[] = outcomes.map((o) => {
    const lb = lbs.get(o.task_id);
    const valid = o.score !== null && Number.isFinite(o.score);
    const report = lb
      ? gradeScore(lb, valid ? o.score : null, { competitionId: o.task_id, submissionExists: o.submission_exists })
      : null;
    const base = opts.baselines?.[o.task_id];
    return {
      ...o,
      group: groupKey(o),
      grade: gradeOf(report, valid),
      report,
      human_rank: report ? (report.human_rank ?? 0) : null,
      normalized: base ? normalizedScore(o.score, base, base.higher_is_better ?? o.higher_is_better) : null,
      weak_reference: base ? weakReference(base, base.perfect) : null,
    };
  });

  const byGroup = new Map<string, GradedRun[]>();
  for (const r of runs) byGroup.set(r.group, [...(byGroup.get(r.group) ?? []), r]);

  const tasks: TaskRow[] = [];
  const groups: GroupRow[] = [];
  for (const [group, gRuns] of byGroup) {
    const byTask = new Map<string, GradedRun[]>();
    for (const r of gRuns) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r]);
    for (const list of byTask.values())
      list.sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0) || a.run_id.localeCompare(b.run_id));

    for (const [task_id, list] of byTask) {
      const graded = list.filter((r) => r.report);
      tasks.push({
        group,
        task_id,
        modality: list[0]!.modality,
        runs: list.length,
        valid_rate: list.filter((r) => r.grade !== "invalid").length / list.length,
        medal_rate: graded.length ? graded.filter((r) => r.report!.any_medal).length / graded.length : null,
        human_rank: mean(graded.map((r) => r.human_rank ?? 0)),
        normalized: mean(list.flatMap((r) => (r.normalized === null ? [] : [r.normalized]))),
        weak_reference: list[0]!.weak_reference,
      });
    }

    // avg@k: only repeats that every task of the group has (k = the smallest run count), so each
    // replicate averages over the same task set.
    const k = Math.min(...[...byTask.values()].map((l) => l.length));
    const perRep = { valid: [] as number[], medal: [] as number[], rank: [] as number[], norm: [] as number[] };
    for (let i = 0; i < k; i++) {
      const rep = [...byTask.values()].flatMap((l) => (l[i] ? [l[i]!] : []));
      const graded = rep.filter((r) => r.report);
      perRep.valid.push(rep.filter((r) => r.grade !== "invalid").length / rep.length);
      if (graded.length) {
        perRep.medal.push(graded.filter((r) => r.report!.any_medal).length / graded.length);
        perRep.rank.push(mean(graded.map((r) => r.human_rank ?? 0))!);
      }
      const norms = rep.flatMap((r) => (r.normalized === null ? [] : [r.normalized]));
      if (norms.length) perRep.norm.push(mean(norms)!);
    }

    const grades: Record<Grade, number> = { gold: 0, silver: 0, bronze: 0, none: 0, invalid: 0, ungraded: 0 };
    for (const r of gRuns) grades[r.grade]++;
    const modalities = [...new Set(gRuns.map((r) => r.modality))].sort();
    groups.push({
      group,
      harness: gRuns[0]!.harness,
      policy: gRuns[0]!.policy,
      config_hash: gRuns[0]!.config_hash,
      tasks: byTask.size,
      k,
      valid_rate: meanStd(perRep.valid),
      medal_average: meanStd(perRep.medal),
      human_rank: meanStd(perRep.rank),
      normalized: meanStd(perRep.norm),
      grades,
      modality: modalities.map((m) => {
        const mr = gRuns.filter((r) => r.modality === m);
        const graded = mr.filter((r) => r.report);
        return {
          modality: m,
          tasks: new Set(mr.map((r) => r.task_id)).size,
          runs: mr.length,
          medal_rate: graded.length ? graded.filter((r) => r.report!.any_medal).length / graded.length : null,
          valid_rate: mr.filter((r) => r.grade !== "invalid").length / mr.length,
        };
      }),
    });
  }
  return { runs, tasks, groups };
}
