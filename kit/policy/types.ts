import type { TaskPackage } from "../gym/types.js";
import type { FeedbackMode } from "../sandbox/types.js";
import type { Rng } from "../util/rng.js";

/** The four atomic operators (docs/paper-map.md: Operators). */
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

/** What a node changed against its first parent, as its idea states it (grammar nodes; null when unknown). */
export const CHANGE_KINDS = ["model", "features", "validation", "data", "none"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The role of a node in a harness's memory. */
export type ShownRole = "idea" | "ancestor" | "sibling" | "related" | "good" | "history";

/**
 * One node as a harness's memory shows it: the facts behind its entry, and the entry's text (what an LLM
 * reads). Every fact is one the text states; nothing reaches a policy here that the text hides.
 */
export interface ShownNode {
  readonly nodeId: string;
  readonly operator: Operator;
  readonly role: ShownRole;
  /** The card's method family (coarse: sklearn, xgboost, neural_net, ensemble+…). */
  readonly methodFamily: string;
  /** The model families its idea names (grammar nodes: the spec's models, in order); [] when unknown. */
  readonly models: readonly string[];
  readonly status: FeedbackMode;
  readonly validScore: number | null;
  readonly errorSignature: string | null;
  /** Gain in signed fitness (> 0 better) over its best parent; null for drafts, failures or unscored parents. */
  readonly gain: number | null;
  /** What it changed against its first parent; null for drafts and nodes whose change is not known. */
  readonly change: ChangeKind | null;
  /** The plan's first line. */
  readonly idea: string;
  /** The rendered entry, exactly as the memory block prints it. */
  readonly text: string;
}

/** A titled list of entries of the memory block (a null title prints no header line). */
export interface ShownSection {
  readonly title: string | null;
  readonly entries: readonly ShownNode[];
}

/** The best node of a method family, as the board shows it. */
export interface ShownBest {
  readonly nodeId: string;
  readonly methodFamily: string;
  readonly score: number;
}

/** The OpenMLE-Evo experience board as data (board-lines.ts renders `lines` from the same fields). */
export interface ShownBoard {
  readonly currentBest: ShownBest | null;
  /** The best node of the second-best family (the crossover complementarity hint pairs it with currentBest). */
  readonly runnerUp: ShownBest | null;
  readonly families: readonly {
    readonly methodFamily: string;
    readonly tried: number;
    readonly succeeded: number;
    readonly best: number | null;
  }[];
  readonly underExplored: readonly string[];
  readonly repeatedErrors: readonly {
    readonly signature: string;
    readonly failures: number;
    readonly nodes: readonly string[];
  }[];
  /** Gains (signed fitness) of the last Improve/Crossover children over their best parent, oldest first. */
  readonly trend: readonly { readonly nodeId: string; readonly operator: string; readonly delta: number }[];
  readonly lines: readonly string[];
}

/** OpenMLE-Evo's memory synthesis as fields: what worked, what failed, open ideas (one short line each item). */
export interface ShownSynthesis {
  readonly worked: readonly string[];
  readonly failed: readonly string[];
  readonly openIdeas: readonly string[];
}

/**
 * What a harness shows an operator beyond the parents, as data: `memory` is rendered from it
 * (renderShown), and the grammar policy reads it. A harness that does not show a field leaves it out.
 */
export interface ContextShown {
  readonly priors?: string;
  readonly board?: ShownBoard;
  readonly sections: readonly ShownSection[];
  readonly synthesis?: ShownSynthesis;
  /** Whether the budget line is shown (the numbers are OperatorContext.budget). */
  readonly budget: boolean;
}

/** Everything the search hands an operator (docs/paper-map.md: Cards and memory). */
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
  /** The same memory as data (ContextShown); memory = renderShown(shown, budget) when both are set. */
  readonly shown?: ContextShown;
  readonly budget: {
    readonly remainingSteps: number;
    readonly remainingTimeS: number;
    readonly perRunTimeLimitS: number;
  };
  /** The run and the node being written, when known: model calls are recorded under them (llm_calls). */
  readonly runId?: string;
  readonly nodeId?: string;
}

/** One sampled decision of a policy, with its log-probability (for SFT/RL: L_evo, docs/paper-map.md: Operators). */
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
