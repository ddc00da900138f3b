import type { Choice } from "../types.js";
import { KitError, logSumExp } from "../../util/index.js";

type Row = Readonly<Record<string, number>>;

/**
 * All learnable parameters of the grammar policy: categorical distributions over each decision's
 * options. The logit of option o of decision d (`<operator>.<modality>.<decision>`) under the
 * decision features F (task shape and parent state, see decision-features.ts) is
 *
 *     z(o | d, F) = logits[d][o] + Σ_{f ∈ F} conditioned[generic(d)][f][o]
 *
 * where generic(d) = `<operator>.<decision>` drops the modality, so a conditioned row is shared by
 * every modality whose tasks show feature f (e.g. `rows:<500`). A missing logit is 0, so an empty
 * object is the uniform policy. Version 1 has no `conditioned` rows (and loads as before);
 * version 2 adds them. JSON in, JSON out.
 */
export interface GrammarParams {
  readonly version: 1 | 2;
  readonly logits: Readonly<Record<string, Row>>;
  /** Version 2: feature-conditioned rows, generic decision → feature → option → logit. */
  readonly conditioned?: Readonly<Record<string, Readonly<Record<string, Row>>>>;
}

/** A recorded decision: Choice plus the options it was sampled from and the decision features it saw (needed for
 * gradients). */
export interface GrammarChoice extends Choice {
  readonly value: string;
  readonly options: readonly string[];
  /** The decision features active when it was drawn (absent or empty: base row only). */
  readonly features?: readonly string[];
}

/** Params that cannot be read or used (bad JSON, another format version); the message says which. */
export class GrammarParamsError extends KitError {}

/** `<operator>.<modality>.<decision>` → `<operator>.<decision>` (the key of the conditioned rows). */
export function genericDecision(name: string): string {
  const parts = name.split(".");
  return parts.length < 3 ? name : [parts[0], ...parts.slice(2)].join(".");
}

export function paramsToJson(params: GrammarParams): string {
  return JSON.stringify(params, null, 1);
}

function checkRow(where: string, row: unknown): void {
  if (typeof row !== "object" || row === null)
    throw new GrammarParamsError(`${where} must be an object of option → logit: fix or remove it`);
  for (const [opt, v] of Object.entries(row)) {
    if (typeof v !== "number" || !Number.isFinite(v))
      throw new GrammarParamsError(`logit ${where}[${opt}] = ${String(v)} is not a finite number: fix or remove it`);
  }
}

export function paramsFromJson(json: string): GrammarParams {
  const raw = JSON.parse(json) as Partial<GrammarParams>;
  if ((raw.version !== 1 && raw.version !== 2) || typeof raw.logits !== "object" || raw.logits === null) {
    throw new GrammarParamsError(
      `grammar params must look like {"version":1|2,"logits":{...}}; got ` +
        `version=${String(raw.version)}: pass JSON written by paramsToJson`,
    );
  }
  for (const [key, row] of Object.entries(raw.logits)) checkRow(key, row);
  if (raw.version === 1) {
    if (raw.conditioned !== undefined)
      throw new GrammarParamsError(
        `version 1 grammar params have no "conditioned" rows: set "version": 2 or remove them`,
      );
    return { version: 1, logits: raw.logits };
  }
  const conditioned = raw.conditioned ?? {};
  if (typeof conditioned !== "object" || conditioned === null)
    throw new GrammarParamsError(`"conditioned" must be an object of decision → feature → option → logit`);
  for (const [key, byFeature] of Object.entries(conditioned)) {
    if (typeof byFeature !== "object" || byFeature === null)
      throw new GrammarParamsError(`conditioned ${key} must be an object of feature → row`);
    for (const [f, row] of Object.entries(byFeature)) checkRow(`${key}|${f}`, row);
  }
  return { version: 2, logits: raw.logits, conditioned };
}

/** The logits z(o | d, F) of `options` (pure; formula on GrammarParams). */
export function decisionLogits(
  params: GrammarParams,
  name: string,
  options: readonly string[],
  features: readonly string[] = [],
): number[] {
  const row = params.logits[name] ?? {};
  const z = options.map((o) => row[o] ?? 0);
  const byFeature = features.length && params.conditioned ? params.conditioned[genericDecision(name)] : undefined;
  if (byFeature) {
    for (const f of features) {
      const r = byFeature[f];
      if (r)
        options.forEach((o, i) => {
          z[i]! += r[o] ?? 0;
        });
    }
  }
  return z;
}

/** log softmax over `options` of the decision's logits under features F (pure). */
export function logSoftmax(
  params: GrammarParams,
  name: string,
  options: readonly string[],
  features: readonly string[] = [],
): number[] {
  const z = decisionLogits(params, name, options, features);
  const lse = logSumExp(z);
  return z.map((v) => v - lse);
}

/** log p of one recorded choice under `params` (its options and features as recorded). */
export function choiceLogProb(params: GrammarParams, c: GrammarChoice): number {
  const i = c.options.indexOf(c.value);
  return i < 0 ? -Infinity : logSoftmax(params, c.name, c.options, c.features ?? [])[i]!;
}

export interface GradientOptions {
  /**
   * Also update the feature-conditioned rows (version 2 params) of choices that carry features.
   * Default false: the base rows learn alone and version 1 params stay version 1. Measured in
   * bench/erl/README.md ("What transfers"): at matched step size the conditioned rows gave no
   * held-out gain within a modality and a slight loss across modalities on the built-in suite.
   */
  readonly conditioned?: boolean;
}

/**
 * One weighted policy-gradient step (gradient ascent on Σ w · log p(choice)). Every row that
 * enters z(o | d, F) gets the same gradient: for each choice, with p under the *current* params,
 *
 *     logits[d][o] += lr · w · (1[o = value] − p(o))
 *     conditioned[generic(d)][f][o] += lr · w · (1[o = value] − p(o))   for f ∈ F (opt-in: `conditioned`)
 *
 * SFT is w = 1 on kept programs; RL passes advantages as w. Returns new params (input untouched).
 */
export function gradientStep(
  params: GrammarParams,
  samples: readonly { readonly choices: readonly (GrammarChoice | Choice)[]; readonly weight: number }[],
  lr: number,
  opts: GradientOptions = {},
): GrammarParams {
  const learnConditioned = opts.conditioned ?? false;
  const delta: Record<string, Record<string, number>> = {};
  const cdelta: Record<string, Record<string, Record<string, number>>> = {};
  for (const { choices, weight } of samples) {
    for (const c of choices) {
      const value = String(c.value);
      const options =
        "options" in c && Array.isArray(c.options)
          ? c.options.map(String)
          : [...new Set([...Object.keys(params.logits[c.name] ?? {}), value])];
      const features = "features" in c && Array.isArray(c.features) ? (c.features as string[]) : [];
      const lp = logSoftmax(params, c.name, options, features);
      const g = options.map((o, i) => lr * weight * ((o === value ? 1 : 0) - Math.exp(lp[i]!)));
      const row = (delta[c.name] ??= {});
      options.forEach((o, i) => {
        row[o] = (row[o] ?? 0) + g[i]!;
      });
      if (learnConditioned && features.length) {
        const byFeature = (cdelta[genericDecision(c.name)] ??= {});
        for (const f of features) {
          const r = (byFeature[f] ??= {});
          options.forEach((o, i) => {
            r[o] = (r[o] ?? 0) + g[i]!;
          });
        }
      }
    }
  }
  const logits: Record<string, Record<string, number>> = {};
  for (const [k, row] of Object.entries(params.logits)) logits[k] = { ...row };
  for (const [k, row] of Object.entries(delta)) {
    const out = (logits[k] ??= {});
    for (const [o, d] of Object.entries(row)) out[o] = (out[o] ?? 0) + d;
  }
  if (!params.conditioned && Object.keys(cdelta).length === 0) return { version: params.version, logits };
  const conditioned: Record<string, Record<string, Record<string, number>>> = {};
  for (const [k, byF] of Object.entries(params.conditioned ?? {})) {
    conditioned[k] = {};
    for (const [f, row] of Object.entries(byF)) conditioned[k][f] = { ...row };
  }
  for (const [k, byF] of Object.entries(cdelta)) {
    const outF = (conditioned[k] ??= {});
    for (const [f, row] of Object.entries(byF)) {
      const out = (outF[f] ??= {});
      for (const [o, d] of Object.entries(row)) out[o] = (out[o] ?? 0) + d;
    }
  }
  return { version: 2, logits, conditioned };
}
