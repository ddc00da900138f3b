/**
 * The causal-inheritance judge (docs/paper-map.md: SFT collection): an LLM decides, for each non-final step of a
 * multi-step segment, whether what it introduced is inherited by later steps and materially
 * contributes to the endpoint. Typed prompt → one pure renderer → one model call → parsed verdicts,
 * cached in memory_cache (operator "judge") by model and prompt hash.
 */
import { z } from "zod";
import { readJudgeCache, writeJudgeCache } from "../../evo/index.js";
import type { ChatMessage, LanguageModel } from "../../llm/spec.js";
import { stableHash, type Workspace } from "../../store/index.js";
import { ErlError } from "../errors.js";

export interface JudgeStep {
  /** 1-based position in the segment. */
  readonly index: number;
  readonly nodeId: string;
  readonly operator: string;
  readonly status: string;
  readonly validScore: number | null;
  readonly errorSignature: string | null;
  readonly plan: string;
  readonly code: string;
}

export interface JudgePrompt {
  readonly task: { readonly id: string; readonly metric: string; readonly higherIsBetter: boolean };
  readonly segmentOperator: string;
  readonly endpointScore: number | null;
  /** Every step of the segment, the endpoint last. */
  readonly steps: readonly JudgeStep[];
  /** Indices the judge must decide (all but the endpoint). */
  readonly decide: readonly number[];
}

export interface StepVerdict {
  readonly index: number;
  readonly keep: boolean;
  readonly reason: string;
}

export class JudgeError extends ErlError {}

const RULES =
  `You review one segment of an ML-engineering search tree: a start program followed by ` +
  `Debug steps, ending at an accepted endpoint.
For each step you are asked about, decide KEEP or DROP by causal inheritance:
- KEEP a step only if what it introduced (a strategy, a necessary intermediate state, or a decisive error repair) is inherited by later steps and materially contributes to the endpoint.
- Distinguish goal from method: a later step reaching the same goal by a different method does not inherit the earlier step.
- DROP cosmetic edits, blind retries without diagnosis, changes that only shrink training to dodge resource limits, failed environment fixes, and any network access.
Answer with JSON only: {"steps": [{"step": <number>, "keep": true|false, "reason": "<one sentence>"}]} ` +
  `with one entry per step asked about.`;

const cut = (s: string, n: number) =>
  s.length <= n ? s : `${s.slice(0, n / 2)}\n... [${s.length - n} characters cut] ...\n${s.slice(-n / 2)}`;

/** The judge's chat messages (pure). */
export function renderJudgePrompt(p: JudgePrompt, maxCodeChars = 6000): ChatMessage[] {
  const steps = p.steps.map((s) =>
    [
      `## Step ${s.index}: ${s.operator} ${s.nodeId} — ${s.status}` +
        `${s.validScore !== null ? `, validation ${s.validScore}` : ""}` +
        `${s.errorSignature ? `, error ${s.errorSignature}` : ""}`,
      `Plan:\n${s.plan.trim()}`,
      "```python",
      cut(s.code, maxCodeChars).trimEnd(),
      "```",
    ].join("\n"),
  );
  const user = [
    `Task ${p.task.id}: metric ${p.task.metric} (${p.task.higherIsBetter ? "higher" : "lower"} is better).`,
    `Segment started by ${p.segmentOperator}; endpoint validation score ${p.endpointScore ?? "n/a"}.`,
    "",
    ...steps,
    "",
    `Decide steps: ${p.decide.join(", ")}. The endpoint (step ${p.steps.length}) is kept.`,
  ].join("\n");
  return [
    { role: "system", content: RULES },
    { role: "user", content: user },
  ];
}

const Verdicts = z.object({
  steps: z.array(z.object({ step: z.coerce.number().int(), keep: z.boolean(), reason: z.string().default("") })),
});

/** Parse the judge's reply: the last JSON object in it (fenced or bare); every asked step must have a verdict. */
export function parseJudgeVerdicts(text: string, decide: readonly number[]): StepVerdict[] {
  const body = text.replace(/<think>[\s\S]*?<\/think>/g, "");
  const fenced = [...body.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const candidates = [...fenced.reverse(), body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1)];
  for (const c of candidates) {
    let raw: unknown;
    try {
      raw = JSON.parse(c);
    } catch {
      continue;
    }
    const parsed = Verdicts.safeParse(raw);
    if (!parsed.success) continue;
    const by = new Map(parsed.data.steps.map((s) => [s.step, s]));
    const missing = decide.filter((i) => !by.has(i));
    if (missing.length)
      throw new JudgeError(
        `the judge gave no verdict for step(s) ${missing.join(", ")}: use a model that follows the ` +
          `JSON format, or omit --judge-base-url to skip the judge`,
      );
    return decide.map((i) => ({ index: i, keep: by.get(i)!.keep, reason: by.get(i)!.reason.trim() }));
  }
  throw new JudgeError(
    `the judge's reply holds no {"steps": [...]} JSON (it ` +
      `starts: ${JSON.stringify(text.slice(0, 80))}): use a model that follows the JSON format, or ` +
      `omit --judge-base-url to skip the judge`,
  );
}

/**
 * Judge one segment: 1. render the prompt; 2. look it up in memory_cache; 3. on a miss call the
 * model (temperature 0, purpose "judge"), parse, and cache the verdicts. A failing endpoint
 * raises JudgeError naming it (nothing but cache rows of earlier segments has been written).
 */
export async function judgeSegment(
  model: LanguageModel,
  prompt: JudgePrompt,
  opts: { ws?: Workspace; runId?: string } = {},
): Promise<{ verdicts: StepVerdict[]; cached: boolean }> {
  if (prompt.decide.length === 0) return { verdicts: [], cached: false };
  const messages = renderJudgePrompt(prompt);
  const key = `judge/${model.provider}:${model.modelId}/${stableHash(messages)}`;
  if (opts.ws) {
    const hit = await readJudgeCache(opts.ws, key);
    if (hit !== null) return { verdicts: JSON.parse(hit) as StepVerdict[], cached: true };
  }
  let text: string;
  try {
    text = (
      await model.chat({
        messages,
        temperature: 0,
        purpose: "judge",
        runId: opts.runId,
        nodeId: prompt.steps[0]?.nodeId,
      })
    ).text;
  } catch (e) {
    throw new JudgeError(
      `the judge endpoint failed on segment ${prompt.steps.map((s) => s.nodeId).join("→")}` +
        `${opts.runId ? ` of run ${opts.runId}` : ""}: ${(e as Error).message.split("\n")[0]}. ` +
        `Check --judge-base-url/--judge-model and rerun (verdicts so far are cached), or omit them ` +
        `to skip the judge; no dataset was stored`,
      { cause: e },
    );
  }
  const verdicts = parseJudgeVerdicts(text, prompt.decide);
  if (opts.ws && !opts.ws.readOnly) {
    await writeJudgeCache(opts.ws, {
      cacheKey: key,
      runId: opts.runId ?? null,
      nodeId: prompt.steps[0]?.nodeId ?? null,
      operator: "judge",
      model: model.modelId,
      summary: JSON.stringify(verdicts),
    });
  }
  return { verdicts, cached: false };
}
