import type { Choice } from "../types.js";
import type { OptionFeatures } from "./option-features.js";
import { KitError, logSumExp } from "../../util/index.js";

type Row = Readonly<Record<string, number>>;

/**
 * All learnable parameters of the grammar policy: categorical distributions over each decision's
 * options. The logit of option o of decision d (`<operator>.<modality>.<decision>`) under the
 * decision features F (task shape and parent state, see decision-features.ts) and the option's context
 * labels L(o) (option-features.ts: what the context tells about that option) is
 *
 *     z(o | d, F, L) = logits[d][o] + Σ_{f ∈ F} conditioned[generic(d)][f][o] + Σ_{l ∈ L(o)} optionWeights[key(d)][l]
 *
 * where generic(d) = `<operator>.<decision>` drops the modality, so a conditioned row is shared by
 * every modality whose tasks show feature f (e.g. `rows:<500`), and key(d) = `<operator>.<first part of the
 * decision>` (e.g. `improve.edit` for every `improve.<modality>.edit.<family>`), so one weight says "an option
 * whose family failed twice" for every family, modality and task. A missing logit or weight is 0, so an empty
 * object is the uniform policy. Version 1 has neither table; version 2 adds `conditioned`; version 3 adds
 * `optionWeights` and is the only version whose decisions see context labels (versions 1 and 2 replay as they
 * were recorded). JSON in, JSON out.
 */
export interface GrammarParams {
  readonly version: 1 | 2 | 3;
  readonly logits: Readonly<Record<string, Row>>;
  /** Versions 2 and 3: feature-conditioned rows, generic decision → feature → option → logit. */
  readonly conditioned?: Readonly<Record<string, Readonly<Record<string, Row>>>>;
  /** Version 3: context-label weights, option key → label → weight. */
  readonly optionWeights?: Readonly<Record<string, Row>>;
}

/** Whether decisions under these params see context labels (version 3). */
export const usesContext = (p: GrammarParams): boolean => p.version === 3;

/** `<operator>.<modality>.<decision>[.<more>]` → `<operator>.<decision>` (the key of the option weights). */
export function optionKey(name: string): string {
  const parts = name.split(".");
  return parts.length < 3 ? name : `${parts[0]}.${parts[2]}`;
}

/** A recorded decision: Choice plus the options it was sampled from and the decision features it saw (needed for
 * gradients). */
export interface GrammarChoice extends Choice {
  readonly value: string;
  readonly options: readonly string[];
  /** The decision features active when it was drawn (absent or empty: base row only). */
  readonly features?: readonly string[];
  /** Version 3: the context labels of each option (options without labels left out). */
  readonly optionFeatures?: OptionFeatures;
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
  const v = raw.version;
  if ((v !== 1 && v !== 2 && v !== 3) || typeof raw.logits !== "object" || raw.logits === null) {
    throw new GrammarParamsError(
      `grammar params must look like {"version":1|2|3,"logits":{...}}; got ` +
        `version=${String(raw.version)}: pass JSON written by paramsToJson`,
    );
  }
  for (const [key, row] of Object.entries(raw.logits)) checkRow(key, row);
  if (v === 1) {
    if (raw.conditioned !== undefined)
      throw new GrammarParamsError(
        `version 1 grammar params have no "conditioned" rows: set "version": 2 or remove them`,
      );
  }
  if (v !== 3 && raw.optionWeights !== undefined)
    throw new GrammarParamsError(`only version 3 grammar params have "optionWeights": set "version": 3 or remove them`);
  if (v === 1) return { version: 1, logits: raw.logits };
  const conditioned = raw.conditioned ?? {};
  if (typeof conditioned !== "object" || conditioned === null)
    throw new GrammarParamsError(`"conditioned" must be an object of decision → feature → option → logit`);
  for (const [key, byFeature] of Object.entries(conditioned)) {
    if (typeof byFeature !== "object" || byFeature === null)
      throw new GrammarParamsError(`conditioned ${key} must be an object of feature → row`);
    for (const [f, row] of Object.entries(byFeature)) checkRow(`${key}|${f}`, row);
  }
  if (v === 2) return { version: 2, logits: raw.logits, conditioned };
  const optionWeights = raw.optionWeights ?? {};
  if (typeof optionWeights !== "object" || optionWeights === null)
    throw new GrammarParamsError(`"optionWeights" must be an object of option key → label → weight`);
  for (const [key, row] of Object.entries(optionWeights)) checkRow(`optionWeights ${key}`, row);
  return {
    version: 3,
    logits: raw.logits,
    ...(raw.conditioned !== undefined ? { conditioned } : {}),
    optionWeights,
  };
}

/** The logits z(o | d, F) of `options` (pure; formula on GrammarParams). */
export function decisionLogits(
  params: GrammarParams,
  name: string,
  options: readonly string[],
  features: readonly string[] = [],
  optionFeatures?: OptionFeatures,
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
  const w = optionFeatures && params.version === 3 ? params.optionWeights?.[optionKey(name)] : undefined;
  if (w)
    options.forEach((o, i) => {
      for (const l of optionFeatures![o] ?? []) z[i]! += w[l] ?? 0;
    });
  return z;
}

/** log softmax over `options` of the decision's logits under features F (pure). */
export function logSoftmax(
  params: GrammarParams,
  name: string,
  options: readonly string[],
  features: readonly string[] = [],
  optionFeatures?: OptionFeatures,
): number[] {
  const z = decisionLogits(params, name, options, features, optionFeatures);
  const lse = logSumExp(z);
  return z.map((v) => v - lse);
}

/** log p of one recorded choice under `params` (its options and features as recorded). */
export function choiceLogProb(params: GrammarParams, c: GrammarChoice): number {
  const i = c.options.indexOf(c.value);
  return i < 0 ? -Infinity : logSoftmax(params, c.name, c.options, c.features ?? [], c.optionFeatures)[i]!;
}

/** The full distribution of one recorded decision under `params`: each option, its context labels and p (pure). */
export function choiceDistribution(
  params: GrammarParams,
  c: GrammarChoice,
): { option: string; labels: readonly string[]; p: number }[] {
  const lp = logSoftmax(params, c.name, c.options, c.features ?? [], c.optionFeatures);
  return c.options.map((o, i) => ({ option: o, labels: c.optionFeatures?.[o] ?? [], p: Math.exp(lp[i]!) }));
}
