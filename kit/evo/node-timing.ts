import type { ExecutionRecord } from "../sandbox/types.js";

/** Where one node's wall time went, in seconds (the `node_timings` table). */
export interface NodeTiming {
  readonly nodeS: number;
  readonly policyS: number;
  readonly contextS: number;
  readonly sandboxS: number;
  readonly programS: number;
  readonly scoringS: number;
  readonly storeS: number;
}

/**
 * The split of one node's time from what evolve measured around each step:
 *   programS = record.wallS (the program's process, start to exit; 0 for a reused record),
 *   scoringS = record.scoringS (0 when nothing was scored),
 *   sandboxS = max(0, evaluateS − programS − scoringS) (the sandbox's own steps),
 * and the kit's share of the node is (nodeS − programS) / nodeS.
 */
export function nodeTiming(
  m: { nodeS: number; policyS: number; contextS: number; evaluateS: number; storeS: number },
  rec: ExecutionRecord,
  reused: boolean,
): NodeTiming {
  const programS = reused ? 0 : rec.wallS;
  const scoringS = reused ? 0 : (rec.scoringS ?? 0);
  return {
    nodeS: m.nodeS,
    policyS: m.policyS,
    contextS: m.contextS,
    sandboxS: Math.max(0, m.evaluateS - programS - scoringS),
    programS,
    scoringS,
    storeS: m.storeS,
  };
}

/** The kit's share of a node's time: everything but the program itself. */
export function kitShare(t: Pick<NodeTiming, "nodeS" | "programS">): number {
  return t.nodeS > 0 ? Math.max(0, t.nodeS - t.programS) / t.nodeS : 0;
}
