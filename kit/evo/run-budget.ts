import type { OperatorContext } from "../policy/types.js";
import type { EvolveConfig } from "./config.js";
import type { RunSummary } from "./run-summary.js";
import type { EvoNode } from "./types.js";

/** Why a run stops before its step budget is spent. */
export type BudgetStop = Exclude<RunSummary["stopReason"], "steps">;

/** What the run has spent, read lazily: a clock is read only when its budget is set. */
export interface BudgetSpent {
  readonly aborted: boolean;
  readonly elapsedS: () => number;
  readonly sandboxS: () => number;
}

/** Why the run must stop before its next step, or null: an abort first, then wall time, then sandbox time. */
export function budgetStop(cfg: Pick<EvolveConfig, "maxWallS" | "maxSandboxS">, spent: BudgetSpent): BudgetStop | null {
  if (spent.aborted) return "aborted";
  if (cfg.maxWallS > 0 && spent.elapsedS() >= cfg.maxWallS) return "wall-time";
  if (cfg.maxSandboxS > 0 && spent.sandboxS() >= cfg.maxSandboxS) return "sandbox-time";
  return null;
}

/** Sandbox seconds the run's nodes used. */
export const sandboxSeconds = (nodes: readonly EvoNode[]): number => nodes.reduce((s, n) => s + n.sandboxS, 0);

/** The budget a step's context states: steps left (this one included), wall time left, the per-run limit. */
export function stepBudget(
  cfg: Pick<EvolveConfig, "steps" | "maxWallS" | "perRunTimeoutS">,
  step: number,
  elapsedS: () => number,
): OperatorContext["budget"] {
  return {
    remainingSteps: cfg.steps - step,
    remainingTimeS: cfg.maxWallS > 0 ? Math.max(0, cfg.maxWallS - elapsedS()) : Infinity,
    perRunTimeLimitS: cfg.perRunTimeoutS,
  };
}
