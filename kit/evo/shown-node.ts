import { isSolutionSpec, specChange } from "../policy/index.js";
import type { ShownNode, ShownRole } from "../policy/types.js";
import { isGood, type EvoNode } from "./types.js";

/** Gain in signed fitness over the best scored parent: null unless the node is good and some parent has a fitness. */
export function gainOverParents(n: EvoNode, byId: ReadonlyMap<string, EvoNode>): number | null {
  const pf = n.parents.map((p) => byId.get(p)?.fitness ?? null).filter((f): f is number => f !== null);
  return isGood(n) && pf.length ? n.fitness! - Math.max(...pf) : null;
}

/**
 * A node as a harness's memory shows it (pure): its facts and its rendered entry `text`. `byId` holds the
 * run's nodes (its parents' fitness gives the gain, its first parent's spec the change); models and change
 * are known for grammar specs only.
 */
export function shownNode(n: EvoNode, role: ShownRole, text: string, byId: ReadonlyMap<string, EvoNode>): ShownNode {
  const first = n.parents[0] === undefined ? undefined : byId.get(n.parents[0])?.spec;
  const change =
    n.operator !== "draft" && isSolutionSpec(first) && isSolutionSpec(n.spec) ? specChange(first, n.spec) : null;
  return {
    nodeId: n.nodeId,
    operator: n.operator,
    role,
    methodFamily: n.methodFamily,
    models: isSolutionSpec(n.spec) ? n.spec.models.map((m) => m.family) : [],
    status: n.status,
    validScore: n.validScore,
    errorSignature: n.errorSignature,
    gain: gainOverParents(n, byId),
    change,
    idea: n.plan.split("\n")[0] ?? "",
    text,
  };
}
