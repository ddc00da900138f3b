import type { Rng } from "../../util/rng.js";
import type { ContextEvidence } from "./context-evidence.js";
import type { OptionFeatures } from "./option-features.js";
import { logSoftmax, usesContext, type GrammarChoice, type GrammarParams } from "./params.js";
import { KitError } from "../../util/index.js";

/** A (name, value) pair of a recorded trace, as embedded in rendered programs. */
export interface TraceStep {
  readonly name: string;
  readonly value: string;
}

/** A trace that cannot be replayed: missing, or written for another task, operator or context. */
export class GrammarReplayError extends KitError {}

/**
 * The only source of randomness of the grammar operators. Sampling mode draws each decision from
 * softmax(logits under the call's decision features) with the Rng; replay mode forces the values of a recorded trace
 * and scores them,
 * which is how `logProb` recomputes a program's probability under new parameters.
 */
export class Chooser {
  readonly choices: GrammarChoice[] = [];
  private cursor = 0;

  private constructor(
    private readonly params: GrammarParams,
    private readonly prefix: string,
    private readonly rng: Rng | null,
    private readonly trace: readonly TraceStep[] | null,
    /** Decision features of this operator call (decision-features.ts); recorded on every choice. */
    readonly features: readonly string[],
    evidence: ContextEvidence | null,
  ) {
    this.evidence = usesContext(params) ? evidence : null;
  }

  /**
   * What the context tells (context-evidence.ts) when the params read context (version 3), else null: operators
   * compute option labels from it only then, so versions 1 and 2 decide and replay exactly as recorded.
   */
  readonly evidence: ContextEvidence | null;

  static sampling(
    params: GrammarParams,
    prefix: string,
    rng: Rng,
    features: readonly string[] = [],
    evidence: ContextEvidence | null = null,
  ): Chooser {
    return new Chooser(params, prefix, rng, null, features, evidence);
  }

  static replay(
    params: GrammarParams,
    prefix: string,
    trace: readonly TraceStep[],
    features: readonly string[] = [],
    evidence: ContextEvidence | null = null,
  ): Chooser {
    return new Chooser(params, prefix, null, trace, features, evidence);
  }

  /**
   * Pick one option of decision `<prefix>.<decision>`; the draw and its log-probability are recorded, with the
   * options' context labels (`optionFeatures`, used only while `evidence` is set).
   */
  pick<T extends string>(decision: string, options: readonly T[], optionFeatures?: OptionFeatures): T {
    if (options.length === 0) throw new GrammarReplayError(`decision ${decision} has no options`);
    const name = `${this.prefix}.${decision}`;
    const of = this.evidence && optionFeatures && Object.keys(optionFeatures).length ? optionFeatures : undefined;
    const lp = logSoftmax(this.params, name, options, this.features, of);
    const extra = of ? { optionFeatures: of } : {};
    let i: number;
    if (this.trace) {
      const step = this.trace[this.cursor++];
      if (!step || step.name !== name) {
        throw new GrammarReplayError(
          `trace step ${this.cursor - 1} is ${step ? step.name : "missing"}, expected ${name}: the program was ` +
            `written for another task/operator/context`,
        );
      }
      i = options.indexOf(step.value as T);
      if (i < 0) {
        this.choices.push({
          name,
          value: step.value,
          logProb: -Infinity,
          options: [...options],
          features: this.features,
          ...extra,
        });
        return step.value as T;
      }
    } else {
      const u = this.rng!.next();
      let acc = 0;
      i = options.length - 1;
      for (let k = 0; k < options.length; k++) {
        acc += Math.exp(lp[k]!);
        if (u < acc) {
          i = k;
          break;
        }
      }
    }
    this.choices.push({
      name,
      value: options[i]!,
      logProb: lp[i]!,
      options: [...options],
      features: this.features,
      ...extra,
    });
    return options[i]!;
  }

  /** Pick a number from a grid (labels are the numbers' strings). */
  pickNumber(decision: string, grid: readonly number[]): number {
    return Number(this.pick(decision, grid.map(String)));
  }

  /** Pick true/false. */
  pickBool(decision: string): boolean {
    return this.pick(decision, ["yes", "no"]) === "yes";
  }

  get logProb(): number {
    return this.choices.reduce((s, c) => s + c.logProb, 0);
  }

  /** Replay mode: true when every trace step was consumed. */
  get exhausted(): boolean {
    return this.trace === null || this.cursor === this.trace.length;
  }
}
