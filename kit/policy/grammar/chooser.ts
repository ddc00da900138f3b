import type { Rng } from "../../util/rng.js";
import { logSoftmax, type GrammarChoice, type GrammarParams } from "./params.js";
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
  ) {}

  static sampling(params: GrammarParams, prefix: string, rng: Rng, features: readonly string[] = []): Chooser {
    return new Chooser(params, prefix, rng, null, features);
  }

  static replay(
    params: GrammarParams,
    prefix: string,
    trace: readonly TraceStep[],
    features: readonly string[] = [],
  ): Chooser {
    return new Chooser(params, prefix, null, trace, features);
  }

  /** Pick one option of decision `<prefix>.<decision>`; the draw and its log-probability are recorded. */
  pick<T extends string>(decision: string, options: readonly T[]): T {
    if (options.length === 0) throw new GrammarReplayError(`decision ${decision} has no options`);
    const name = `${this.prefix}.${decision}`;
    const lp = logSoftmax(this.params, name, options, this.features);
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
    this.choices.push({ name, value: options[i]!, logProb: lp[i]!, options: [...options], features: this.features });
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
