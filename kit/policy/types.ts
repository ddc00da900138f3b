import type { TaskPackage } from "../gym/types.js";
import type { FeedbackMode } from "../sandbox/types.js";
import type { Rng } from "../util/rng.js";

/** The four atomic operators of spec §1. */
export const OPERATORS = ["draft", "improve", "debug", "crossover"] as const;
export type Operator = (typeof OPERATORS)[number];

/** What an operator is shown about one node (a parent, ancestor, sibling or earlier failure). */
export interface NodeView {
  readonly nodeId: string;
  readonly operator: Operator;
  readonly code: string;
  readonly plan: string;
  /** The grammar policy's solution spec, when the node was written by it. */
  readonly spec?: unknown;
  readonly status: FeedbackMode;
  readonly validScore: number | null;
  readonly errorSignature: string | null;
  readonly traceback?: string | null;
  readonly stdoutTail?: string;
  /** Method family from the node's experience card. */
  readonly methodFamily?: string;
  /** Memory: the card summary (deterministic) or a cached LLM summary. */
  readonly summary?: string;
}

/** Everything the search hands an operator (spec §4 point 4). */
export interface OperatorContext {
  /** improve/debug: one parent; crossover: two; draft: none. */
  readonly parents: readonly NodeView[];
  readonly ancestors?: readonly NodeView[];
  readonly siblings?: readonly NodeView[];
  /** debug: related nodes, failures with the same error signature first, then the most recent nodes (any outcome). */
  readonly failures?: readonly NodeView[];
  /** A rendered memory block (OpenMLE-Evo: operator-conditioned; AIRA-Evo: good nodes or ancestors; AIDE/MCTS: all
   * nodes). */
  readonly memory?: string;
  readonly budget: {
    readonly remainingSteps: number;
    readonly remainingTimeS: number;
    readonly perRunTimeLimitS: number;
  };
  /** The run and the node being written, when known: model calls are recorded under them (llm_calls). */
  readonly runId?: string;
  readonly nodeId?: string;
}

/** One sampled decision of a policy, with its log-probability (for SFT/RL, spec §1 L_evo). */
export interface Choice {
  readonly name: string;
  readonly value: unknown;
  readonly logProb: number;
}

export interface PolicyUsage {
  readonly promptChars: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly latencyMs: number;
  readonly costUsd?: number;
}

export interface PolicyOutput {
  readonly plan: string;
  /** null when no program could be extracted (→ missing_code). */
  readonly code: string | null;
  readonly spec?: unknown;
  readonly choices?: readonly Choice[];
  readonly logProb?: number;
  readonly usage?: PolicyUsage;
}

/** Whatever writes programs: the grammar policy offline, an LLM otherwise. */
export interface Policy {
  readonly name: string;
  propose(task: TaskPackage, operator: Operator, context: OperatorContext, rng: Rng): Promise<PolicyOutput>;
}
