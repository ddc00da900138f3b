import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { ChatMessage, LanguageModel } from "../llm/spec.js";
import { packagePaths } from "./load-task.js";
import type { TaskPackage } from "./types.js";

/** The five axes of the semantic quality gate (spec §2.2). */
export const GATE_AXES = ["task_validity", "data_sufficiency", "raw_data_usage", "task_complexity", "data_quality"] as const;
export type GateAxis = (typeof GATE_AXES)[number];
/** recommended / conditional / rejected come from the judge; skipped: no model; unparseable: the reply held no verdict. */
export type GateVerdict = "recommended" | "conditional" | "rejected" | "skipped" | "unparseable";

export interface SemanticReview {
  readonly taskId: string;
  readonly verdict: GateVerdict;
  readonly axes: Readonly<Partial<Record<GateAxis, { readonly ok: boolean; readonly note: string }>>>;
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
  readonly result: readonly string[];
  readonly trainSample: string;
  readonly testSample: string;
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

function head(file: string, lines: number): string {
  if (!existsSync(file)) return "(missing)";
  return readFileSync(file, "utf8").split("\n").slice(0, lines).map((l) => l.slice(0, 300)).join("\n");
}

/** Collect the gate's inputs from a package: description, raw file list, prepare.py, its result, samples. */
export function gatePrompt(task: TaskPackage): GatePrompt {
  const p = packagePaths(task.dir);
  const m = task.meta;
  return {
    taskId: m.id,
    description: task.description.slice(0, 6000),
    rawFiles: listFiles(task.dir, p.raw, 40),
    prepareSource: existsSync(p.prepare) ? readFileSync(p.prepare, "utf8").slice(0, 8000) : "(no prepare.py)",
    result: [`train rows: ${m.nTrain ?? "?"}, test rows: ${m.nTest ?? "?"}`, `metric: ${m.metric} (${m.higherIsBetter ? "higher" : "lower"} is better)`, ...listFiles(task.dir, task.publicDir, 30)],
    trainSample: head(join(task.publicDir, m.files.train.endsWith(".csv") ? m.files.train : "train.csv"), 6),
    testSample: head(join(task.publicDir, m.files.test.endsWith(".csv") ? m.files.test : "test.csv"), 4),
  };
}

/** The judge's messages (pure). */
export function renderGatePrompt(g: GatePrompt): ChatMessage[] {
  const system = [
    "You review machine-learning task packages before they enter a benchmark.",
    "Judge five axes: task_validity (a well-posed prediction task with a correct metric), data_sufficiency (enough train and evaluation signal),",
    "raw_data_usage (the processing uses the raw assets substantively, not superficially), task_complexity (neither trivial nor impossible),",
    "data_quality (no leakage, annotation errors or wrong preprocessing). Look for degenerate targets solvable by a trivial rule.",
    'Reply with one JSON object: {"verdict": "recommended" | "conditional" | "rejected", "axes": {"<axis>": {"ok": true|false, "note": "..."}}, "reasons": ["..."]}.',
  ].join(" ");
  const user = [
    `# Task ${g.taskId}`, "## Description", g.description,
    "## Raw files", ...g.rawFiles,
    "## Processing script (utils/prepare.py)", "```python", g.prepareSource, "```",
    "## Processing result", ...g.result,
    "## train.csv (first rows)", g.trainSample,
    "## test.csv (first rows)", g.testSample,
  ].join("\n");
  return [{ role: "system", content: system }, { role: "user", content: user }];
}

/** Parse the judge's reply: the first JSON object with a known verdict, else null (pure). */
export function parseGateReply(text: string): Pick<SemanticReview, "verdict" | "axes" | "reasons"> | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidates = [fenced, text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)].filter((s): s is string => !!s && s.includes("{"));
  for (const c of candidates) {
    try {
      const o = JSON.parse(c) as { verdict?: unknown; axes?: Record<string, { ok?: unknown; note?: unknown }>; reasons?: unknown };
      const verdict = String(o.verdict ?? "").toLowerCase();
      if (verdict !== "recommended" && verdict !== "conditional" && verdict !== "rejected") continue;
      const axes: Partial<Record<GateAxis, { ok: boolean; note: string }>> = {};
      for (const a of GATE_AXES) {
        const v = o.axes?.[a];
        if (v) axes[a] = { ok: v.ok === true, note: String(v.note ?? "") };
      }
      const reasons = Array.isArray(o.reasons) ? o.reasons.map(String) : [];
      return { verdict, axes, reasons };
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/**
 * The semantic quality gate: an LLM judges the five axes and gives a verdict. Without a model it
 * reports "skipped" (never a fake verdict). Accepted = metricValid AND recommended.
 */
export async function semanticGate(task: TaskPackage, opts: { model?: LanguageModel; metricValid: boolean; signal?: AbortSignal }): Promise<SemanticReview> {
  const base = { taskId: task.meta.id, metricValid: opts.metricValid };
  if (!opts.model) return { ...base, verdict: "skipped", axes: {}, reasons: ["no language model configured"], accepted: false };
  const res = await opts.model.chat({ messages: renderGatePrompt(gatePrompt(task)), temperature: 0, purpose: "quality_gate", signal: opts.signal });
  const parsed = parseGateReply(res.text);
  if (!parsed) return { ...base, verdict: "unparseable", axes: {}, reasons: ["the reply held no JSON verdict"], accepted: false, model: res.model, reply: res.text };
  return { ...base, ...parsed, accepted: opts.metricValid && parsed.verdict === "recommended", model: res.model, reply: res.text };
}
