import type { Choice } from "../types.js";
import type { OptionFeatures } from "./option-features.js";
import { genericDecision, logSoftmax, optionKey, type GrammarChoice, type GrammarParams } from "./params.js";

export interface GradientOptions {
  /**
   * Also update the feature-conditioned rows (version 2 params) of choices that carry features.
   * Default false: the base rows learn alone and version 1 params stay version 1. Measured in
   * bench/erl/runs/2026-11-30-what-transfers.md: at matched step size the conditioned rows gave no
   * held-out gain within a modality and a slight loss across modalities on the built-in suite.
   */
  readonly conditioned?: boolean;
  /** Update the option weights of version 3 params from choices that carry context labels (default true). */
  readonly context?: boolean;
}

type Table = Record<string, Record<string, number>>;
const add = (t: Table, k: string, o: string, d: number) => {
  const row = (t[k] ??= {});
  row[o] = (row[o] ?? 0) + d;
};
const copy = (t: Readonly<Record<string, Readonly<Record<string, number>>>> | undefined): Table =>
  Object.fromEntries(Object.entries(t ?? {}).map(([k, r]) => [k, { ...r }]));
const merge = (base: Table, delta: Table) => {
  for (const [k, row] of Object.entries(delta)) for (const [o, d] of Object.entries(row)) add(base, k, o, d);
  return base;
};

/**
 * One weighted policy-gradient step (gradient ascent on Σ w · log p(choice)). Every parameter that
 * enters z(o | d, F, L) gets its gradient: for each choice, with p under the *current* params and
 * g(o) = lr · w · (1[o = value] − p(o)),
 *
 *     logits[d][o] += g(o)
 *     conditioned[generic(d)][f][o] += g(o)            for f ∈ F (opt-in: `conditioned`)
 *     optionWeights[key(d)][l] += Σ_{o : l ∈ L(o)} g(o)  (version 3; `context`, default on)
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
  const learnContext = params.version === 3 && (opts.context ?? true);
  const delta: Table = {};
  const cdelta: Record<string, Table> = {};
  const wdelta: Table = {};
  for (const { choices, weight } of samples) {
    for (const c of choices) {
      const value = String(c.value);
      const options =
        "options" in c && Array.isArray(c.options)
          ? c.options.map(String)
          : [...new Set([...Object.keys(params.logits[c.name] ?? {}), value])];
      const features = "features" in c && Array.isArray(c.features) ? (c.features as string[]) : [];
      const of = "optionFeatures" in c ? (c.optionFeatures as OptionFeatures | undefined) : undefined;
      const lp = logSoftmax(params, c.name, options, features, of);
      const g = options.map((o, i) => lr * weight * ((o === value ? 1 : 0) - Math.exp(lp[i]!)));
      options.forEach((o, i) => add(delta, c.name, o, g[i]!));
      if (learnConditioned && features.length) {
        const byFeature = (cdelta[genericDecision(c.name)] ??= {});
        for (const f of features) options.forEach((o, i) => add(byFeature, f, o, g[i]!));
      }
      if (learnContext && of)
        options.forEach((o, i) => {
          for (const l of of[o] ?? []) add(wdelta, optionKey(c.name), l, g[i]!);
        });
    }
  }
  const logits = merge(copy(params.logits), delta);
  const hasConditioned = params.conditioned !== undefined || Object.keys(cdelta).length > 0;
  const conditioned: Record<string, Table> = {};
  for (const [k, byF] of Object.entries(params.conditioned ?? {})) conditioned[k] = copy(byF);
  for (const [k, byF] of Object.entries(cdelta)) merge((conditioned[k] ??= {}), byF);
  if (params.version === 3)
    return {
      version: 3,
      logits,
      ...(hasConditioned ? { conditioned } : {}),
      optionWeights: merge(copy(params.optionWeights), wdelta),
    };
  if (!hasConditioned) return { version: params.version, logits };
  return { version: 2, logits, conditioned };
}
