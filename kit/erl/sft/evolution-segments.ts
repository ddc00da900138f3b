import {
  buildContext,
  EvolveConfig,
  loadNodes,
  readStoredRun,
  upgradeStoredConfig,
  type EvoNode,
} from "../../evo/index.js";
import { gradeScore, liteCompetitionIds, loadLiteLeaderboard } from "../../eval/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { LanguageModel } from "../../llm/spec.js";
import type { LlmPolicyConfigInput } from "../../policy/llm/index.js";
import type { OperatorContext } from "../../policy/types.js";
import type { Workspace } from "../../store/index.js";
import { taskRewardInfo } from "../rl/index.js";
import { acceptSegment, quantileThreshold, type AcceptanceReason } from "./acceptance.js";
import { baselineFilter } from "./baseline-filter.js";
import { judgeSegment, type StepVerdict } from "./causal-judge.js";
import type { CollectSftConfig } from "./sft-config.js";
import { ErlError } from "../errors.js";
import { extractSegments } from "./segments.js";
import { exampleMessages, grammarChoicesOf, type SftExample } from "./sft-example.js";

/** One segment of a run: accepted or not and why, and the judge's verdict per step. */
export interface SegmentReport {
  readonly runId: string;
  readonly taskId: string;
  readonly operator: "draft" | "improve" | "crossover";
  readonly steps: readonly string[];
  readonly endpoint: string;
  readonly endpointScore: number | null;
  readonly threshold: number;
  readonly thresholdKind: "bronze" | "silver" | "gold" | "quantile";
  readonly accepted: boolean;
  readonly reason: AcceptanceReason;
  /** The endpoint's relative validation–test gap (baseline-filter.ts); null when a score is missing. */
  readonly gap: number | null;
  /** Verdicts for the non-final steps (empty when the judge was skipped or the segment has one step). */
  readonly verdicts: readonly (StepVerdict & { readonly nodeId: string })[];
  /** Node ids that became examples. */
  readonly kept: readonly string[];
}

/** An endpoint's threshold: the medal threshold on a leaderboard task, else the run's quantile. */
function thresholdFor(task: TaskPackage, nodes: readonly EvoNode[], cfg: CollectSftConfig, runId: string) {
  const comp = task.meta.competitionId;
  if (comp && liteCompetitionIds().includes(comp)) {
    const lb = loadLiteLeaderboard(comp);
    const r = gradeScore(lb, null);
    const threshold =
      cfg.medal === "gold" ? r.gold_threshold : cfg.medal === "silver" ? r.silver_threshold : r.bronze_threshold;
    return { threshold, kind: cfg.medal, graded: true };
  }
  const q = quantileThreshold(
    nodes.filter((n) => n.status === "success").map((n) => n.validScore),
    cfg.thresholdTopShare,
    task.meta.higherIsBetter,
  );
  if (q === null) {
    throw new ErlError(
      `run ${runId} (task ${task.meta.id}) has no valid scores and the task has no leaderboard, so ` +
        `no segment can reach a threshold: ` +
        `drop it from --runs, or give the task a competitionId with a leaderboard`,
    );
  }
  return { threshold: q, kind: "quantile" as const, graded: false };
}

/**
 * The evolutionary path for one stored run (docs/paper-map.md: SFT collection):
 * 1. load the run's nodes (any harness) and its config;
 * 2. extract segments (segments.ts) and accept them (acceptance.ts) against the threshold; an accepted
 *    segment's endpoint must also pass the baseline filter (baseline-filter.ts, `maxValidationTestGap`),
 *    else it is rejected as "validation-test-gap" or "no-test-score";
 * 3. multi-step accepted segments go to the judge (causal-judge.ts) when a model is given:
 *    non-final steps are kept only on a "keep" verdict; the endpoint is always kept;
 *    without a model every step of an accepted segment is kept (judge "skipped");
 * 4. each kept step becomes an example: the LLM policy's prompt for that operator and the
 *    context rebuilt from the nodes before it (evo's buildContext, deterministic memory).
 */
export async function evolutionSegments(
  ws: Workspace,
  runId: string,
  task: TaskPackage,
  cfg: CollectSftConfig,
  opts: { judge?: LanguageModel; llmPolicy?: LlmPolicyConfigInput; onSegment?: (s: SegmentReport) => void } = {},
): Promise<{ examples: SftExample[]; segments: SegmentReport[] }> {
  const run = await readStoredRun(ws, runId);
  if (!run)
    throw new ErlError(
      `run "${runId}" is not in workspace ${ws.dir}: list runs with openmle ` +
        `workspace query ${ws.dir} "SELECT run_id FROM runs"`,
    );
  const nodes = await loadNodes(ws, runId);
  if (nodes.length === 0)
    throw new ErlError(
      `run ${runId} has no nodes: drop it from --runs (or resume it with openmle evolve --resume ${runId})`,
    );
  const evoCfg = EvolveConfig.parse(run.config ? upgradeStoredConfig(JSON.parse(run.config)) : {});
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const { threshold, kind, graded } = thresholdFor(task, nodes, cfg, runId);
  const hib = task.meta.higherIsBetter;
  const info = taskRewardInfo(task);
  const score = (n: EvoNode | undefined) =>
    n && n.status === "success" && n.validScore !== null && Number.isFinite(n.validScore) ? n.validScore : null;

  const contextOf = async (n: EvoNode): Promise<OperatorContext> => {
    const before = nodes.filter((m) => m.step < n.step);
    const budget = {
      remainingSteps: evoCfg.steps - n.step,
      remainingTimeS: evoCfg.maxWallS > 0 ? evoCfg.maxWallS : Infinity,
      perRunTimeLimitS: evoCfg.perRunTimeoutS,
    };
    return buildContext(
      ws,
      runId,
      evoCfg,
      { operator: n.operator, parents: n.parents, island: n.island },
      before,
      budget,
      {},
    );
  };

  const examples: SftExample[] = [];
  const segments: SegmentReport[] = [];
  for (const seg of extractSegments(nodes)) {
    const start = byId.get(seg.start)!;
    const end = byId.get(seg.endpoint)!;
    const accepted = acceptSegment({
      operator: seg.operator,
      endpoint: score(end),
      parents: start.parents.map((p) => score(byId.get(p))),
      threshold,
      higherIsBetter: hib,
      ...(graded ? { thresholdScore: end.status === "success" ? end.testScore : null } : {}),
    });
    const filter = baselineFilter(
      {
        validScore: score(end),
        testScore: end.status === "success" ? end.testScore : null,
        metricRange: info.metricRange,
        leaderboardRange: info.leaderboardRange,
      },
      cfg.maxValidationTestGap,
    );
    const acc: { accepted: boolean; reason: AcceptanceReason } =
      accepted.accepted && !filter.pass
        ? { accepted: false, reason: filter.reason as "validation-test-gap" | "no-test-score" }
        : accepted;
    let verdicts: SegmentReport["verdicts"] = [];
    let keptIds: string[] = [];
    if (acc.accepted) {
      const reasons = new Map<string, string>([[end.nodeId, opts.judge ? "endpoint" : "judge skipped"]]);
      keptIds = [...seg.steps];
      if (opts.judge && seg.steps.length > 1) {
        const steps = seg.steps.map((id, i) => {
          const n = byId.get(id)!;
          return {
            index: i + 1,
            nodeId: id,
            operator: n.operator,
            status: n.status,
            validScore: n.validScore,
            errorSignature: n.errorSignature,
            plan: n.plan,
            code: n.code,
          };
        });
        const decide = steps.slice(0, -1).map((s) => s.index);
        const r = await judgeSegment(
          opts.judge,
          {
            task: { id: task.meta.id, metric: task.meta.metric, higherIsBetter: hib },
            segmentOperator: seg.operator,
            endpointScore: score(end),
            steps,
            decide,
          },
          { ws, runId },
        );
        verdicts = r.verdicts.map((v) => ({ ...v, nodeId: seg.steps[v.index - 1]! }));
        keptIds = [...verdicts.filter((v) => v.keep).map((v) => v.nodeId), end.nodeId];
        for (const v of verdicts) reasons.set(v.nodeId, v.reason);
      } else if (!opts.judge) {
        for (const id of seg.steps) reasons.set(id, "judge skipped");
      }
      for (const id of keptIds) {
        const n = byId.get(id)!;
        const ctx = await contextOf(n);
        examples.push({
          taskId: task.meta.id,
          operator: n.operator,
          path: "evolution",
          teacher: run.policy ?? "unknown",
          score: score(n),
          sourceRun: runId,
          sourceNode: id,
          messages: exampleMessages(task, n.operator, ctx, n.plan, n.code, opts.llmPolicy),
          program: n.code,
          choices: grammarChoicesOf(task, n.operator, ctx, n.code),
          judgeReason: reasons.get(id) ?? null,
        });
      }
    }
    const report: SegmentReport = {
      runId,
      taskId: task.meta.id,
      operator: seg.operator,
      steps: seg.steps,
      endpoint: seg.endpoint,
      endpointScore: score(end),
      threshold,
      thresholdKind: kind,
      accepted: acc.accepted,
      reason: acc.reason,
      gap: filter.gap,
      verdicts,
      kept: keptIds,
    };
    segments.push(report);
    opts.onSegment?.(report);
  }
  return { examples, segments };
}
