import type { ExperienceCard } from "./experience-card.js";
import type { RunSummary } from "./run-summary.js";
import type { Action, EvoNode } from "./types.js";

/** Progress events of `evolve` (the CLI draws a progress bar, notebooks a live display). */
export type EvoEvent =
  | {
      readonly type: "run-start";
      readonly runId: string;
      readonly resumed: boolean;
      readonly nodes: number;
      readonly steps: number;
    }
  | { readonly type: "step-start"; readonly step: number; readonly action: Action }
  | {
      readonly type: "node";
      readonly step: number;
      readonly node: EvoNode;
      readonly card: ExperienceCard;
      readonly action: Action;
      /** Characters of the context handed to the policy (memory + shown programs). */
      readonly contextChars: number;
      readonly done: number;
      readonly total: number;
      readonly best: number | null;
      readonly nodesPerMin: number;
    }
  | { readonly type: "run-end"; readonly summary: RunSummary };
