import { gradientStep, logSoftmax, type GrammarChoice, type GrammarParams } from "../../policy/grammar/index.js";
import type { Workspace } from "../../store/index.js";
import { checkpointExists } from "../checkpoint-store.js";
import { resolvePolicyParams, saveCheckpoint, type Checkpoint } from "../checkpoints.js";
import { crossValidatedEpoch } from "./cv-epoch.js";
import { heldOutSplit, kFolds } from "./held-out-split.js";
import { SftTrainConfig, type SftTrainConfigInput } from "./sft-config.js";
import { loadDataset } from "./dataset-store.js";
import { ErlError } from "../errors.js";

/**
 * log g_θ(program) from its recorded decisions: Σ_choices log softmax(z(· | d, F, L))[value] over the recorded
 * options, with each choice's decision features F and context labels L (as the chooser scored them).
 */
export function choicesLogLik(params: GrammarParams, choices: readonly GrammarChoice[]): number {
  let s = 0;
  for (const c of choices) {
    const i = c.options.indexOf(String(c.value));
    s += i < 0 ? -Infinity : logSoftmax(params, c.name, c.options, c.features ?? [], c.optionFeatures)[i]!;
  }
  return s;
}

/** Mean log-likelihood per example (NaN-free: 0 for no examples). */
export const meanLogLik = (params: GrammarParams, set: readonly (readonly GrammarChoice[])[]): number =>
  set.length ? set.reduce((s, c) => s + choicesLogLik(params, c), 0) / set.length : 0;

export interface SftMetrics {
  readonly trainExamples: number;
  readonly heldOutExamples: number;
  /** Examples of the dataset the grammar policy did not write (no decisions to train on). */
  readonly skippedExamples: number;
  readonly trainLogLikBefore: number;
  readonly trainLogLikAfter: number;
  /** null without a held-out split. */
  readonly heldOutLogLikBefore: number | null;
  readonly heldOutLogLikAfter: number | null;
  /** Mean train log-likelihood after each epoch. */
  readonly curve: readonly number[];
  /** Mean held-out log-likelihood after each epoch (empty without a held-out split). */
  readonly heldOutCurve: readonly number[];
  /** The epoch whose params were kept (0 = the starting params; `epochs` without early stopping). */
  readonly keptEpoch: number;
}

/** One epoch: a full-batch step on the mean log-likelihood of `train` (weights 1/n). */
const epochStep = (p: GrammarParams, train: readonly (readonly GrammarChoice[])[], cfg: SftTrainConfig) =>
  gradientStep(
    p,
    train.map((choices) => ({ choices, weight: 1 / train.length })),
    cfg.lr,
    {
      conditioned: cfg.conditioned,
    },
  );

/**
 * SFT of the grammar policy: L_evo with w = 1 (docs/paper-map.md: Operators), i.e. maximum likelihood of the kept
 * programs' decisions.
 * Pure: 1. split off `heldOut` of the examples, or with `splitBy` "task" every example of that share of the tasks
 * (`groups[i]` = example i's task id; heldOutSplit); 2. each epoch, one gradient-ascent step on the mean
 * log-likelihood, θ ← θ + lr · (1/n) Σ_i ∇ log g_θ(y_i) (gradientStep with w = 1/n; the feature-conditioned rows too
 * when `conditioned`); 3. with `earlyStopping` and a held-out split, keep the params of the epoch e* =
 * argmax_e LL_held(θ_e) over e = 0 … epochs (θ_0 = the starting params: the regulariser against the previous
 * generation — SFT never keeps a step that makes unseen programs less likely); 4. log-likelihood before and after.
 * With `folds` K ≥ 2 the epoch is chosen on K folds instead of one split, then trained on all examples
 * (crossValidatedSft).
 */
export function trainGrammarSft(
  params: GrammarParams,
  examples: readonly (readonly GrammarChoice[])[],
  cfgIn: SftTrainConfigInput = {},
  groups?: readonly string[],
): { params: GrammarParams; metrics: Omit<SftMetrics, "skippedExamples"> } {
  const cfg = SftTrainConfig.parse(cfgIn);
  if (cfg.splitBy === "task" && groups?.length !== examples.length)
    throw new ErlError(`SFT with splitBy "task" needs each example's task id (${examples.length} examples)`);
  if (cfg.folds > 1) return crossValidatedSft(params, examples, cfg, groups);
  const split = heldOutSplit(examples.length, { share: cfg.heldOut, seed: cfg.seed, by: cfg.splitBy }, groups);
  const held = split.held.map((i) => examples[i]!);
  const train = split.train.map((i) => examples[i]!);
  const before = { train: meanLogLik(params, train), held: meanLogLik(params, held) };
  let p = params;
  const curve: number[] = [];
  const heldOutCurve: number[] = [];
  const stop = cfg.earlyStopping && held.length > 0;
  let kept = { params, epoch: 0, ll: before.held };
  for (let e = 0; e < cfg.epochs; e++) {
    p = epochStep(p, train, cfg);
    curve.push(meanLogLik(p, train));
    if (held.length) heldOutCurve.push(meanLogLik(p, held));
    if (stop && heldOutCurve.at(-1)! > kept.ll) kept = { params: p, epoch: e + 1, ll: heldOutCurve.at(-1)! };
  }
  if (stop) p = kept.params;
  return {
    params: p,
    metrics: {
      trainExamples: train.length,
      heldOutExamples: held.length,
      trainLogLikBefore: before.train,
      trainLogLikAfter: meanLogLik(p, train),
      heldOutLogLikBefore: held.length ? before.held : null,
      heldOutLogLikAfter: held.length ? meanLogLik(p, held) : null,
      curve,
      heldOutCurve,
      keptEpoch: stop ? kept.epoch : cfg.epochs,
    },
  };
}

/**
 * trainGrammarSft with `folds` K ≥ 2: 1. K folds (kFolds, splitBy's unit); 2. for each fold, `epochs` steps on the
 * other folds, the fold's mean log-likelihood read at e = 0 … epochs; 3. e* = crossValidatedEpoch of the K curves;
 * 4. e* steps from the starting params on all examples. Held-out metrics are the pooled curve's (every example is
 * held out once); the train curve is the refit's (e* entries). With fewer than 2 units nothing is held out.
 */
function crossValidatedSft(
  params: GrammarParams,
  examples: readonly (readonly GrammarChoice[])[],
  cfg: SftTrainConfig,
  groups?: readonly string[],
): { params: GrammarParams; metrics: Omit<SftMetrics, "skippedExamples"> } {
  const folds = kFolds(examples.length, cfg.folds, { seed: cfg.seed, by: cfg.splitBy }, groups);
  // One task (or example) cannot be held out: train every epoch, as one split does when nothing can be held out.
  if (folds.length < 2) return trainGrammarSft(params, examples, { ...cfg, folds: 1, heldOut: 0 }, groups);
  const curves = folds.map((heldIdx) => {
    const heldSet = new Set(heldIdx);
    const held = heldIdx.map((i) => examples[i]!);
    const train = examples.filter((_, i) => !heldSet.has(i));
    let p = params;
    const ll = [meanLogLik(p, held)];
    for (let e = 0; e < cfg.epochs; e++) ll.push(meanLogLik((p = epochStep(p, train, cfg)), held));
    return { n: held.length, ll };
  });
  const { epoch, pooled } = crossValidatedEpoch(curves);
  let p = params;
  const curve: number[] = [];
  for (let e = 0; e < epoch; e++) curve.push(meanLogLik((p = epochStep(p, examples, cfg)), examples));
  return {
    params: p,
    metrics: {
      trainExamples: examples.length,
      heldOutExamples: examples.length,
      trainLogLikBefore: meanLogLik(params, examples),
      trainLogLikAfter: meanLogLik(p, examples),
      heldOutLogLikBefore: pooled[0]!,
      heldOutLogLikAfter: pooled[epoch]!,
      curve,
      heldOutCurve: pooled.slice(1),
      keptEpoch: epoch,
    },
  };
}

export interface SftRunOptions {
  readonly dataset: string;
  /** Params to start from: "default", a checkpoint name or a .json file (resolvePolicyParams). */
  readonly from: string;
  /** Name of the checkpoint to write. */
  readonly to: string;
  readonly config?: SftTrainConfigInput;
  readonly replace?: boolean;
}

/**
 * `openmle sft train`: 1. resolve the starting params and load the dataset; 2. keep the examples
 * with grammar decisions; 3. train (trainGrammarSft); 4. store the result as a checkpoint
 * (parent, dataset, config hash, metrics). Fails before writing anything on bad input.
 */
export async function sftTrain(
  ws: Workspace,
  opts: SftRunOptions,
): Promise<{ checkpoint: Checkpoint; metrics: SftMetrics }> {
  const cfg = SftTrainConfig.parse(opts.config ?? {});
  const start = await resolvePolicyParams(opts.from, ws);
  const examples = await loadDataset(ws, opts.dataset);
  const withChoices = examples.filter((e) => e.choices && e.choices.length > 0);
  const usable = withChoices.map((e) => e.choices!);
  if (usable.length === 0) {
    throw new ErlError(
      `dataset "${opts.dataset}" has no programs written by the grammar policy (no decisions to ` +
        `train on): collect with --teacher grammar`,
    );
  }
  if (!opts.replace && (await checkpointExists(ws, opts.to))) {
    throw new ErlError(`checkpoint "${opts.to}" already exists in ${ws.dir}: pick another --to name or pass --replace`);
  }
  const { params, metrics } = trainGrammarSft(
    start.params,
    usable,
    cfg,
    withChoices.map((e) => e.taskId),
  );
  const full: SftMetrics = { ...metrics, skippedExamples: examples.length - usable.length };
  const checkpoint = await saveCheckpoint(
    ws,
    {
      name: opts.to,
      params,
      parent: start.checkpoint,
      source: "sft",
      dataset: opts.dataset,
      config: { ...cfg, from: opts.from, dataset: opts.dataset },
      metrics: { ...full },
    },
    { replace: opts.replace },
  );
  return { checkpoint, metrics: full };
}
