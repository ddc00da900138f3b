import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { settleAll } from "../util/settle-all.js";
import type { ChatMessage, LanguageModel } from "../llm/spec.js";
import { readConfinedText } from "./confined-files.js";
import { packagePaths } from "./load-task.js";
import { scoreSubmission } from "./score-submission.js";
import type { TaskPackage } from "./types.js";

/** The five axes of the semantic quality gate (the paper's Fig. 3). */
export const GATE_AXES = [
  "task_validity",
  "data_sufficiency",
  "raw_data_usage",
  "task_complexity",
  "data_quality",
] as const;
export type GateAxis = (typeof GATE_AXES)[number];
/** recommended / conditional / rejected come from the judge; skipped: no model; unparseable: the reply held no verdict.
 */
export type GateVerdict = "recommended" | "conditional" | "rejected" | "skipped" | "unparseable";

export interface SemanticReview {
  readonly taskId: string;
  readonly verdict: GateVerdict;
  /** Each axis scored 0–5 by the judge, with its note. */
  readonly axes: Readonly<Partial<Record<GateAxis, { readonly score: number; readonly note: string }>>>;
  /** Mean of the five axis scores (null when the reply did not score all five). */
  readonly meanScore?: number | null;
  readonly reasons: readonly string[];
  /** Accepted = metric-valid AND recommended (conditional is rejected). */
  readonly accepted: boolean;
  readonly metricValid: boolean;
  readonly model?: string;
  readonly reply?: string;
}

/** Everything the judge reads, as a typed object a notebook can show. */
export interface GatePrompt {
  readonly taskId: string;
  readonly description: string;
  readonly rawFiles: readonly string[];
  readonly prepareSource: string;
  /** utils/prepare_config.json (what a built package's prepare.py reads), when the package has one. */
  readonly prepareConfig?: string;
  readonly result: readonly string[];
  readonly trainSample: string;
  readonly testSample: string;
  /** utils/metric.py as shipped. */
  readonly metricSource: string;
  /** Metric smoke test: what the metric gives the answers against themselves and the sample submission. */
  readonly metricSmoke: readonly string[];
}

/** Verdict thresholds on the mean axis score (0–5): >= 4 recommended, >= 2.5 conditional, else rejected. */
export const GATE_THRESHOLDS = { recommended: 4, conditional: 2.5 } as const;

/** The verdict from the five axis scores (pure): mean >= 4 recommended, >= 2.5 conditional, else rejected. */
export function gateVerdict(scores: readonly number[]): "recommended" | "conditional" | "rejected" {
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  return mean >= GATE_THRESHOLDS.recommended
    ? "recommended"
    : mean >= GATE_THRESHOLDS.conditional
      ? "conditional"
      : "rejected";
}

/** Run the package's metric on its own answers and on the sample submission (the smoke test shown to the judge). */
export async function metricSmokeTest(task: TaskPackage): Promise<string[]> {
  const p = packagePaths(task.dir);
  const show = (r: Awaited<ReturnType<typeof scoreSubmission>>) =>
    r.ok ? `score ${r.score}` : `${r.kind}: ${r.message}`;
  const [self, sample] = await settleAll([
    scoreSubmission(task, p.answers),
    scoreSubmission(task, join(task.publicDir, task.meta.files.sampleSubmission)),
  ]);
  return [`answers scored against themselves: ${show(self)}`, `sample_submission.csv: ${show(sample)}`];
}

function listFiles(base: string, dir: string, max: number): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d) || out.length >= max) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (out.length < max) out.push(`${relative(base, p)} (${statSync(p).size} bytes)`);
    }
  };
  walk(dir);
  return out;
}

/** The start of a package file, read as confined-files reads: a FIFO or a link out is refused, a huge file cut. */
const prefix = (root: string, rel: string, bytes: number) =>
  readConfinedText(root, rel, bytes, `package ${root}`, true);

function head(root: string, rel: string, lines: number): string {
  const text = prefix(root, rel, 64 * 1024);
  if (text === null) return "(missing)";
  return text
    .split("\n")
    .slice(0, lines)
    .map((l) => l.slice(0, 300))
    .join("\n");
}

/** Collect the gate's inputs from a package: description, raw file list, prepare.py, its result, samples, metric.py and
 * its smoke test. */
export function gatePrompt(task: TaskPackage, metricSmoke: readonly string[] = ["(not run)"]): GatePrompt {
  const p = packagePaths(task.dir);
  const m = task.meta;
  return {
    taskId: m.id,
    description: task.description.slice(0, 6000),
    rawFiles: listFiles(task.dir, p.raw, 40),
    prepareSource: prefix(p.root, "utils/prepare.py", 32_000)?.slice(0, 8000) ?? "(no prepare.py)",
    ...(existsSync(p.prepareConfig)
      ? { prepareConfig: prefix(p.root, relative(p.root, p.prepareConfig), 16_000)?.slice(0, 4000) ?? "" }
      : {}),
    result: [
      `train rows: ${m.nTrain ?? "?"}, test rows: ${m.nTest ?? "?"}`,
      `metric: ${m.metric} (${m.higherIsBetter ? "higher" : "lower"} is better)`,
      ...listFiles(task.dir, task.publicDir, 30),
    ],
    trainSample: head(p.root, `data/public/${m.files.train.endsWith(".csv") ? m.files.train : "train.csv"}`, 6),
    testSample: head(p.root, `data/public/${m.files.test.endsWith(".csv") ? m.files.test : "test.csv"}`, 4),
    metricSource: prefix(p.root, "utils/metric.py", 32_000)?.slice(0, 8000) ?? "(no metric.py)",
    metricSmoke,
  };
}

/** The judge's messages (pure). */
export function renderGatePrompt(g: GatePrompt): ChatMessage[] {
  const system = [
    "You review machine-learning task packages before they enter a benchmark.",
    "Judge five axes: task_validity (a well-posed prediction task with a correct metric), " +
      "data_sufficiency (enough train and evaluation signal),",
    "raw_data_usage (the processing uses the raw assets substantively, not superficially), " +
      "task_complexity (neither trivial nor impossible),",
    "data_quality (no leakage, annotation errors or wrong preprocessing). Look for degenerate " +
      "targets solvable by a trivial rule.",
    "Score each axis from 0 (unusable) to 5 (excellent); the verdict follows from the mean score (>= " +
      "4 recommended, >= 2.5 conditional, else rejected).",
    'Reply with one JSON object: {"axes": {"<axis>": {"score": 0-5, "note": "..."}}, "reasons": ["..."]}.',
  ].join(" ");
  const user = [
    `# Task ${g.taskId}`,
    "## Description",
    g.description,
    "## Raw files",
    ...g.rawFiles,
    "## Processing script (utils/prepare.py)",
    "```python",
    g.prepareSource,
    "```",
    ...(g.prepareConfig === undefined
      ? []
      : ["## Processing config (utils/prepare_config.json)", "```json", g.prepareConfig, "```"]),
    "## Processing result",
    ...g.result,
    "## train.csv (first rows)",
    g.trainSample,
    "## test.csv (first rows)",
    g.testSample,
    "## Metric (utils/metric.py)",
    "```python",
    g.metricSource,
    "```",
    "## Metric smoke test",
    ...g.metricSmoke,
  ].join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
}

/**
 * Parse the judge's reply (pure): the first JSON object that scores all five axes 0–5; the verdict is
 * computed from the mean score (gateVerdict), whatever verdict the reply may state. Else null.
 */
export function parseGateReply(
  text: string,
): Pick<SemanticReview, "verdict" | "axes" | "reasons" | "meanScore"> | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidates = [fenced, text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)].filter(
    (s): s is string => !!s && s.includes("{"),
  );
  for (const c of candidates) {
    try {
      const o = JSON.parse(c) as { axes?: Record<string, { score?: unknown; note?: unknown }>; reasons?: unknown };
      const axes: Partial<Record<GateAxis, { score: number; note: string }>> = {};
      for (const a of GATE_AXES) {
        const v = o.axes?.[a];
        const score = typeof v?.score === "number" ? v.score : Number(v?.score);
        if (v && Number.isFinite(score) && score >= 0 && score <= 5) axes[a] = { score, note: String(v.note ?? "") };
      }
      if (Object.keys(axes).length !== GATE_AXES.length) continue;
      const scores = GATE_AXES.map((a) => axes[a]!.score);
      const reasons = Array.isArray(o.reasons) ? o.reasons.map(String) : [];
      return {
        verdict: gateVerdict(scores),
        axes,
        reasons,
        meanScore: scores.reduce((x, y) => x + y, 0) / scores.length,
      };
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/**
 * The semantic quality gate: an LLM scores the five axes 0–5 (evidence: description, raw files,
 * prepare.py and its result, samples, metric.py and a metric smoke test); the verdict is the mean's. Without a model it
 * reports "skipped" (never a fake verdict). Accepted = metricValid AND recommended.
 */
export async function semanticGate(
  task: TaskPackage,
  opts: { model?: LanguageModel; metricValid: boolean; signal?: AbortSignal },
): Promise<SemanticReview> {
  const base = { taskId: task.meta.id, metricValid: opts.metricValid };
  if (!opts.model)
    return { ...base, verdict: "skipped", axes: {}, reasons: ["no language model configured"], accepted: false };
  const smoke = await metricSmokeTest(task);
  const res = await opts.model.chat({
    messages: renderGatePrompt(gatePrompt(task, smoke)),
    temperature: 0,
    purpose: "quality_gate",
    signal: opts.signal,
  });
  const parsed = parseGateReply(res.text);
  if (!parsed)
    return {
      ...base,
      verdict: "unparseable",
      axes: {},
      reasons: ["the reply did not score all five axes 0–5"],
      accepted: false,
      model: res.model,
      reply: res.text,
    };
  return {
    ...base,
    ...parsed,
    accepted: opts.metricValid && parsed.verdict === "recommended",
    model: res.model,
    reply: res.text,
  };
}
