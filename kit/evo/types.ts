import type { Operator, PolicyUsage } from "../policy/types.js";
import type { FeedbackMode } from "../sandbox/types.js";

/** One evaluated node of a search, as held in memory and stored in the nodes/cards tables. */
export interface EvoNode {
  readonly nodeId: string;
  /** The step that issued it (0-based); node ids are derived from it. */
  readonly step: number;
  readonly island: number;
  /** Loop generation (island harnesses; the card's generation_id); tree harnesses: the lineage depth. */
  readonly generation: number;
  /** Lineage depth: drafts 0, Improve/Crossover = deepest parent + 1, Debug keeps its parent's. */
  readonly lineageDepth: number;
  readonly operator: Operator;
  readonly parents: readonly string[];
  readonly status: FeedbackMode;
  readonly errorSignature: string | null;
  readonly validScore: number | null;
  readonly testScore: number | null;
  /** Signed validation score (higher is better); null unless the node succeeded with a score. */
  readonly fitness: number | null;
  readonly admitted: boolean;
  readonly plan: string;
  readonly code: string;
  readonly spec?: unknown;
  readonly logProb: number | null;
  readonly executionId: string;
  readonly sandboxS: number;
  readonly traceback: string | null;
  readonly stdoutTail: string;
  readonly methodFamily: string;
  readonly imports: readonly string[];
  readonly usage?: PolicyUsage;
}

/** A node is "good" when it ran and produced a validation score. */
export function isGood(n: Pick<EvoNode, "status" | "fitness">): boolean {
  return n.status === "success" && n.fitness !== null;
}

/** What a harness decides for one step. */
export interface Action {
  readonly operator: Operator;
  readonly parents: readonly string[];
  readonly island: number;
  /** Loop generation of the node this action makes (island harnesses; absent for tree harnesses). */
  readonly generation?: number;
  /** Selection probabilities shown to notebooks (nodeId → P), when a parent was sampled. */
  readonly selection?: readonly { readonly nodeId: string; readonly utility: number; readonly probability: number }[];
}

export const nodeIdOf = (step: number): string => `n${String(step).padStart(4, "0")}`;
