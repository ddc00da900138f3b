import { champion } from "../evo/index.js";
import {
  validationTransfer,
  formatNodesPerMin,
  formatRate,
  formatTimeSplit,
  type ChampionVsDraft,
  type GradedRun,
  type Throughput,
  type ValidationTransfer,
} from "../eval/index.js";
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
  /** MLE-bench grade when the task has a leaderboard (MLE-bench Lite's or a kit corpus one), else null. */
  readonly grade: string | null;
  readonly humanRank: number | null;
  /** Node valid rate: share of the run's nodes that ran and produced a validation score. */
  readonly nodeValidRate: number;
  readonly nodesScored: number;
  readonly nodes: number;
  /** Submission validity: the champion's program wrote a submission that was scored on the hidden test split. */
  readonly submissionValid: boolean;
  readonly bestDraft: number | null;
  /** The champion against the best draft on validation and the hidden test; `flag` when only validation gained. */
  readonly vsDraft: ChampionVsDraft;
  /** Validation → hidden test over all nodes: schemes, best node on the test, regret, ρ (validation-transfer.ts). */
  readonly transfer: ValidationTransfer;
  readonly stepBudget: number | null;
  readonly sandboxS: number;
  /** The run's wall time: its throughput's (first start to last end) when known, else the stored summary's. */
  readonly wallS: number | null;
  readonly tokens: number;
  /** Nodes per minute and the programs / kit split (kit/eval/throughput.ts); null when not loaded. */
  readonly throughput: Throughput | null;
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
  opts: { baselines?: { trivial: number; reference: number }; gapThreshold?: number; throughput?: Throughput } = {},
): RunResult {
  const champ = champion(v.nodes) as ViewNode | null;
  const drafts = v.nodes.filter((n) => n.operator === "draft" && good(n));
  const bestDraft = drafts.length ? drafts.reduce((a, b) => (b.fitness! > a.fitness! ? b : a)).validScore : null;
  const stored = v.summary && typeof v.summary.wallS === "number" ? v.summary.wallS : null;
  const transfer = validationTransfer(
    v.nodes.map((n) => ({
      node_id: n.nodeId,
      operator: n.operator,
      status: n.status,
      valid_score: n.validScore,
      test_score: n.testScore,
      code: n.code,
    })),
    v.higherIsBetter,
    champ?.nodeId,
  );
  const wall = opts.throughput?.wallS ?? stored;
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
    vsDraft: transfer.champion_vs_draft,
    transfer,
    stepBudget: v.config?.steps ?? null,
    sandboxS: v.nodes.reduce((s, n) => s + n.sandboxS, 0),
    wallS: wall,
    tokens: v.nodes.reduce((s, n) => s + (n.usage?.promptTokens ?? 0) + (n.usage?.completionTokens ?? 0), 0),
    throughput: opts.throughput ?? null,
  };
}

/**
 * The throughput row: "12.4 nodes/min (31 nodes in 2.5 min of wall time, 4 workers) · 38% in programs, 62% kit";
 * "—" with the reason when the run has no wall time yet.
 */
export function throughputHtml(t: Throughput | null): string {
  if (t === null) return cellHtml(null, "the run's times were not loaded");
  if (t.wallS === null || t.nodesPerMin === null)
    return cellHtml(null, t.wallS === 0 ? "the run ended the moment it started" : "the run has no end and no node yet");
  const until = t.wallUntil === "last-node" ? " up to its latest node" : "";
  const lanes = `${t.workers} worker${t.workers === 1 ? "" : "s"}`;
  return (
    `<b>${escapeHtml(formatNodesPerMin(t.nodesPerMin))}</b> <span class="openmle-muted">(${t.nodes} nodes in ` +
    `${escapeHtml(formatSeconds(t.wallS) ?? "")} of wall time${until}, ${lanes})</span> · ` +
    `${escapeHtml(formatTimeSplit(t))} <span class="openmle-muted">(share of the workers' wall time)</span>`
  );
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

const signed = (x: number) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${formatNumber(Math.abs(x))}`;

/** The two rows beside the champion: the best draft's scores and the champion's gain over it, flagged. */
export function vsDraftRows(d: ChampionVsDraft): { draft: string; gain: string } {
  const b = d.bestDraft;
  const draft = b
    ? `${escapeHtml(b.nodeId)} · validation ${cellHtml(num(b.valid))} · hidden test ` +
      cellHtml(num(b.test), "not scored on the hidden split")
    : cellHtml(
        null,
        d.state === "no-champion" ? "no node produced a validation score" : "no draft produced a validation score",
      );
  const reason: Record<string, string> = {
    "no-champion": "no champion",
    "no-draft": "no draft produced a validation score",
    "no-gain":
      d.champion?.nodeId === b?.nodeId
        ? "none: the champion is the best draft"
        : "none: the champion ties the best draft on validation",
  };
  if (d.validGain === null || d.state === "no-gain")
    return { draft, gain: `<span class="openmle-muted">${escapeHtml(reason[d.state] ?? "")}</span>` };
  const test =
    d.testGain === null
      ? cellHtml(null, "the champion or the best draft was not scored on the hidden split")
      : escapeHtml(signed(d.testGain));
  const gains =
    `validation ${escapeHtml(signed(d.validGain))} · hidden test ${test} ` +
    `<span class="openmle-muted">(positive = better)</span>`;
  const note =
    d.state === "disagree"
      ? ` <b class="openmle-warn openmle-flag">⚠ the improvement holds on validation only: on the hidden test ` +
        `the champion is ${d.testGain === 0 ? "no better than" : "worse than"} the best draft</b>`
      : d.state === "agree"
        ? ` <span class="openmle-muted">(the improvement holds on the hidden test)</span>`
        : "";
  return { draft, gain: gains + note };
}

/**
 * "champion validated by 20 % holdout, best draft by 3-fold CV · best node on the hidden test n0030 2.892 (the
 * champion leaves 0.208) · ρ 0.42 over 40 nodes": which validation each score came from and what picking by it cost.
 */
export function transferText(t: ValidationTransfer): string {
  const by = (label: string, sch: ValidationTransfer["champion_scheme"]) => (sch ? `${label} ${sch.label}` : null);
  const schemes = [by("champion validated by", t.champion_scheme), by("best draft by", t.best_draft_scheme)];
  const b = t.best_on_test;
  const parts = [
    schemes.filter(Boolean).join(", "),
    b
      ? `best node on the hidden test ${b.node_id} ${formatNumber(b.test)}` +
        (t.regret === null ? "" : ` (the champion leaves ${formatNumber(t.regret)})`)
      : null,
    t.spearman === null ? null : `rank correlation ρ ${t.spearman.toFixed(2)} over ${t.points.length} nodes`,
  ].filter((x): x is string => !!x);
  return parts.length
    ? escapeHtml(parts.join(" · "))
    : cellHtml(null, "no node has both a validation and a hidden test score");
}

/** The result block: task, harness, policy, champion, scores, grade, validity and budget, then the champion's code. */
export function resultHtml(r: RunResult, opts: { status: string; solutionFile?: string }): string {
  const c = r.champion;
  const vs = vsDraftRows(r.vsDraft);
  const row = (k: string, v: string) => `<tr><th>${escapeHtml(k)}</th><td>${v}</td></tr>`;
  return `<section class="openmle-result" data-run="${escapeHtml(r.runId)}"><h2>Result of ${escapeHtml(r.runId)}</h2>
<table class="openmle-headline">
${row("task", `${escapeHtml(r.task)} <span class="openmle-muted">(${escapeHtml(r.metric)})</span>`)}
${row("harness · policy", `${escapeHtml(r.harness)} · ${escapeHtml(r.policy)} <span class="openmle-muted">(run ${escapeHtml(opts.status)})</span>`)}
${row("champion", c ? `${escapeHtml(c.nodeId)} · ${escapeHtml(c.operator)} · family ${escapeHtml(c.methodFamily)} · step ${c.step}` : cellHtml(null, "no node ran and produced a validation score"))}
${row("validation score", `<b>${cellHtml(num(r.validScore), "no node produced a validation score")}</b>`)}
${row("hidden test score", `<b>${cellHtml(num(r.testScore), c ? "the champion's submission was not scored on the hidden split" : "no champion")}</b>`)}
${row("best draft", vs.draft)}
${row("champion's gain over it", vs.gain)}
${row("validation → hidden test", transferText(r.transfer))}
${row("validation – test gap", r.validationGap ? `${r.validationGap.large ? `<b class="openmle-warn">⚠ ${escapeHtml(gapText(r.validationGap))}: validation promised more than the hidden test gave; look for leakage or a validation unlike the test split</b>` : escapeHtml(gapText(r.validationGap))}` : cellHtml(null, "the champion lacks a validation or a hidden test score"))}
${row("grade", r.grade ? `${escapeHtml(r.grade)}${r.humanRank === null ? "" : ` · beats ${formatPercent(r.humanRank)} of the leaderboard`}` : cellHtml(null, "no leaderboard for this task (MLE-bench Lite or a current corpus one)"))}
${row("node valid rate", `${formatPercent(r.nodeValidRate)} <span class="openmle-muted">(${r.nodesScored} of ${r.nodes} nodes ran and scored)</span>`)}
${row("submission validity", r.submissionValid ? "valid (the champion's submission scored on the hidden split)" : "invalid or missing")}
${row("throughput", throughputHtml(r.throughput))}
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
    "nodes/min": r.throughput?.nodesPerMin == null ? null : formatRate(r.throughput.nodesPerMin),
    "node valid rate": formatPercent(r.nodeValidRate),
    champion: r.champion ? `${r.champion.nodeId} (${r.champion.operator}, ${r.champion.methodFamily})` : null,
    validation: r.validScore,
    "hidden test": r.testScore,
    "val – test gap": r.validationGap ? gapText(r.validationGap) : null,
    "gain over best draft (val / test)":
      r.vsDraft.validGain === null || r.vsDraft.state === "no-gain"
        ? null
        : `${signed(r.vsDraft.validGain)} / ${r.vsDraft.testGain === null ? "—" : signed(r.vsDraft.testGain)}` +
          `${r.vsDraft.flag ? " ⚠ validation only" : ""}`,
    "regret to best on test": r.transfer.regret,
    grade: r.grade,
    submission: r.submissionValid ? "valid" : "invalid",
  };
}
