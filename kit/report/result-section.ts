import { champion } from "../evo/index.js";
import type { GradedRun } from "../eval/index.js";
import { cellHtml, escapeHtml, formatNumber, formatPercent, formatSeconds } from "./format.js";
import type { RunView, ViewNode } from "./run-view.js";
import { validationGap, type ValidationGap } from "./validation-gap.js";

/** The headline numbers of one run (what the report opens with); null fields carry a reason. */
export interface RunResult {
  readonly runId: string;
  readonly task: string;
  readonly metric: string;
  readonly harness: string;
  readonly policy: string;
  readonly champion: ViewNode | null;
  readonly validScore: number | null;
  readonly testScore: number | null;
  /** The champion's validation–test gap (validation-gap.ts); `large` flags an optimistic validation. */
  readonly validationGap: ValidationGap | null;
  /** MLE-bench grade when the task has a leaderboard, else null. */
  readonly grade: string | null;
  readonly humanRank: number | null;
  /** Node valid rate: share of the run's nodes that ran and produced a validation score. */
  readonly nodeValidRate: number;
  readonly nodesScored: number;
  readonly nodes: number;
  /** Submission validity: the champion's program wrote a submission that was scored on the hidden test split. */
  readonly submissionValid: boolean;
  readonly bestDraft: number | null;
  readonly stepBudget: number | null;
  readonly sandboxS: number;
  readonly wallS: number | null;
  readonly tokens: number;
}

const good = (n: ViewNode) => n.status === "success" && n.fitness !== null;

/**
 * The headline numbers of a run, from its nodes (champion by validation fitness, as kit/evo picks it) and its grade;
 * the validation–test gap is scaled by the task's baselines when given (else by the scores), large above
 * `gapThreshold`.
 */
export function runResult(
  v: RunView,
  graded?: GradedRun,
  opts: { baselines?: { trivial: number; reference: number }; gapThreshold?: number } = {},
): RunResult {
  const champ = champion(v.nodes) as ViewNode | null;
  const drafts = v.nodes.filter((n) => n.operator === "draft" && good(n));
  const bestDraft = drafts.length ? drafts.reduce((a, b) => (b.fitness! > a.fitness! ? b : a)).validScore : null;
  const wall = v.summary && typeof v.summary.wallS === "number" ? v.summary.wallS : null;
  return {
    runId: v.runId,
    task: v.taskName ? `${v.taskName} (${v.taskId})` : v.taskId,
    metric: `${v.metric ?? "score"}, ${v.higherIsBetter ? "higher" : "lower"} is better`,
    harness: v.harness,
    policy: v.model ? `${v.policy} · ${v.model}` : v.policy === "grammar" ? "grammar (embedded, no model)" : v.policy,
    champion: champ,
    validScore: champ?.validScore ?? null,
    testScore: champ?.testScore ?? null,
    validationGap: validationGap(champ?.validScore, champ?.testScore, v.higherIsBetter, {
      baselines: opts.baselines,
      config: opts.gapThreshold === undefined ? {} : { threshold: opts.gapThreshold },
    }),
    grade: graded?.report ? graded.grade : null,
    humanRank: graded?.report ? graded.human_rank : null,
    nodeValidRate: v.nodes.length ? v.nodes.filter(good).length / v.nodes.length : 0,
    nodesScored: v.nodes.filter(good).length,
    nodes: v.nodes.length,
    submissionValid: champ !== null && champ.testScore !== null && Number.isFinite(champ.testScore),
    bestDraft,
    stepBudget: v.config?.steps ?? null,
    sandboxS: v.nodes.reduce((s, n) => s + n.sandboxS, 0),
    wallS: wall,
    tokens: v.nodes.reduce((s, n) => s + (n.usage?.promptTokens ?? 0) + (n.usage?.completionTokens ?? 0), 0),
  };
}

const num = (x: number | null) => (x === null ? null : formatNumber(x));

/** "+0.298 (41% of the scores; large)": the gap, its relative size and the flag. */
export function gapText(g: ValidationGap): string {
  const sign = g.gap > 0 ? "+" : "";
  return (
    `${sign}${formatNumber(g.gap)} (${formatPercent(Math.abs(g.relative))} of the ` +
    `${g.scale === "baselines" ? "trivial → reference distance" : "scores"}${g.large ? "; large" : ""})`
  );
}

/** The result block: task, harness, policy, champion, scores, grade, validity and budget, then the champion's code. */
export function resultHtml(r: RunResult, opts: { status: string; solutionFile?: string }): string {
  const c = r.champion;
  const row = (k: string, v: string) => `<tr><th>${escapeHtml(k)}</th><td>${v}</td></tr>`;
  const improved =
    r.bestDraft !== null && r.validScore !== null
      ? `best first draft ${formatNumber(r.bestDraft)} → champion ${formatNumber(r.validScore)}`
      : null;
  return `<section class="openmle-result" data-run="${escapeHtml(r.runId)}"><h2>Result of ${escapeHtml(r.runId)}</h2>
<table class="openmle-headline">
${row("task", `${escapeHtml(r.task)} <span class="openmle-muted">(${escapeHtml(r.metric)})</span>`)}
${row("harness · policy", `${escapeHtml(r.harness)} · ${escapeHtml(r.policy)} <span class="openmle-muted">(run ${escapeHtml(opts.status)})</span>`)}
${row("champion", c ? `${escapeHtml(c.nodeId)} · ${escapeHtml(c.operator)} · family ${escapeHtml(c.methodFamily)} · step ${c.step}` : cellHtml(null, "no node ran and produced a validation score"))}
${row("validation score", `<b>${cellHtml(num(r.validScore), "no node produced a validation score")}</b>${improved ? ` <span class="openmle-muted">(${escapeHtml(improved)})</span>` : ""}`)}
${row("hidden test score", `<b>${cellHtml(num(r.testScore), c ? "the champion's submission was not scored on the hidden split" : "no champion")}</b>`)}
${row("validation – test gap", r.validationGap ? `${r.validationGap.large ? `<b class="openmle-warn">⚠ ${escapeHtml(gapText(r.validationGap))}: validation promised more than the hidden test gave; look for leakage or a validation unlike the test split</b>` : escapeHtml(gapText(r.validationGap))}` : cellHtml(null, "the champion lacks a validation or a hidden test score"))}
${row("grade", r.grade ? `${escapeHtml(r.grade)}${r.humanRank === null ? "" : ` · beats ${formatPercent(r.humanRank)} of leaderboard teams`}` : cellHtml(null, "no MLE-bench leaderboard for this task"))}
${row("node valid rate", `${formatPercent(r.nodeValidRate)} <span class="openmle-muted">(${r.nodesScored} of ${r.nodes} nodes ran and scored)</span>`)}
${row("submission validity", r.submissionValid ? "valid (the champion's submission scored on the hidden split)" : "invalid or missing")}
${row("budget used", escapeHtml([`${r.nodes}${r.stepBudget === null ? "" : ` of ${r.stepBudget}`} steps`, `sandbox ${formatSeconds(r.sandboxS)}`, r.wallS === null ? null : `wall ${formatSeconds(r.wallS)}`, r.tokens ? `${formatNumber(r.tokens)} tokens` : "no LLM tokens"].filter(Boolean).join(" · ")))}
</table>
${c ? `<details class="openmle-champion-code" open><summary>Champion's code${opts.solutionFile ? ` (also written as <code>${escapeHtml(opts.solutionFile)}</code>)` : ""}</summary><pre class="openmle-code">${escapeHtml(c.code)}</pre></details>` : ""}
</section>`;
}

/** One row per run for the runs table (formatted by htmlTable). */
export function resultRow(r: RunResult): Record<string, unknown> {
  return {
    run: r.runId,
    task: r.task,
    harness: r.harness,
    policy: r.policy,
    nodes: r.nodes,
    "node valid rate": formatPercent(r.nodeValidRate),
    champion: r.champion ? `${r.champion.nodeId} (${r.champion.operator}, ${r.champion.methodFamily})` : null,
    validation: r.validScore,
    "hidden test": r.testScore,
    "val – test gap": r.validationGap ? gapText(r.validationGap) : null,
    grade: r.grade,
    submission: r.submissionValid ? "valid" : "invalid",
  };
}
