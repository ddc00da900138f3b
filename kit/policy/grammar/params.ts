import type { Choice } from "../types.js";

/**
 * All learnable parameters of the grammar policy: one categorical distribution per decision,
 * as logits keyed by decision name (`<operator>.<modality>.<decision>`) and option label.
 * A missing logit is 0, so an empty object is the uniform policy. JSON in, JSON out.
 */
export interface GrammarParams {
  readonly version: 1;
  readonly logits: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** A recorded decision: Choice plus the options it was sampled from (needed for gradients). */
export interface GrammarChoice extends Choice {
  readonly value: string;
  readonly options: readonly string[];
}

export class GrammarParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GrammarParamsError";
  }
}

export function paramsToJson(params: GrammarParams): string {
  return JSON.stringify(params, null, 1);
}

export function paramsFromJson(json: string): GrammarParams {
  const raw = JSON.parse(json) as Partial<GrammarParams>;
  if (raw.version !== 1 || typeof raw.logits !== "object" || raw.logits === null) {
    throw new GrammarParamsError(`grammar params must look like {"version":1,"logits":{...}}; got version=${String(raw.version)}: pass JSON written by paramsToJson`);
  }
  for (const [key, row] of Object.entries(raw.logits)) {
    for (const [opt, v] of Object.entries(row)) {
      if (typeof v !== "number" || !Number.isFinite(v)) throw new GrammarParamsError(`logit ${key}[${opt}] = ${String(v)} is not a finite number: fix or remove it`);
    }
  }
  return { version: 1, logits: raw.logits };
}

/** log softmax over `options` of the decision's logits (pure). */
export function logSoftmax(params: GrammarParams, name: string, options: readonly string[]): number[] {
  const row = params.logits[name] ?? {};
  const z = options.map((o) => row[o] ?? 0);
  const m = Math.max(...z);
  const lse = m + Math.log(z.reduce((s, v) => s + Math.exp(v - m), 0));
  return z.map((v) => v - lse);
}

/**
 * One weighted policy-gradient step on the logits (gradient ascent on Σ w · log p(choice)):
 * for each choice, logit[o] += lr · w · (1[o = value] − p(o)), with p under the *current* params.
 * SFT is w = 1 on kept programs; RL passes advantages as w. Returns new params (input untouched).
 */
export function gradientStep(
  params: GrammarParams,
  samples: readonly { readonly choices: readonly (GrammarChoice | Choice)[]; readonly weight: number }[],
  lr: number,
): GrammarParams {
  const delta: Record<string, Record<string, number>> = {};
  for (const { choices, weight } of samples) {
    for (const c of choices) {
      const value = String(c.value);
      const options = "options" in c && Array.isArray(c.options) ? c.options.map(String)
        : [...new Set([...Object.keys(params.logits[c.name] ?? {}), value])];
      const lp = logSoftmax(params, c.name, options);
      const row = (delta[c.name] ??= {});
      options.forEach((o, i) => {
        row[o] = (row[o] ?? 0) + lr * weight * ((o === value ? 1 : 0) - Math.exp(lp[i]!));
      });
    }
  }
  const logits: Record<string, Record<string, number>> = {};
  for (const [k, row] of Object.entries(params.logits)) logits[k] = { ...row };
  for (const [k, row] of Object.entries(delta)) {
    const out = (logits[k] ??= {});
    for (const [o, d] of Object.entries(row)) out[o] = (out[o] ?? 0) + d;
  }
  return { version: 1, logits };
}
