import type { EvoNode } from "../types.js";

/** A hand-written node for table-driven tests of the pure parts. */
export function mkNode(p: Partial<EvoNode> & { nodeId: string }): EvoNode {
  const good = p.status === undefined || p.status === "success";
  const validScore = p.validScore !== undefined ? p.validScore : good ? 0.5 : null;
  return {
    step: Number(p.nodeId.replace(/\D/g, "") || 0),
    island: 0,
    generation: 0,
    lineageDepth: 0,
    operator: "draft",
    parents: [],
    status: "success",
    errorSignature: null,
    testScore: null,
    fitness: p.fitness !== undefined ? p.fitness : validScore,
    admitted: good,
    plan: `plan of ${p.nodeId}`,
    code: "import sklearn",
    logProb: null,
    executionId: `e-${p.nodeId}`,
    sandboxS: 1,
    traceback: null,
    stdoutTail: "",
    methodFamily: "sklearn",
    imports: ["sklearn"],
    ...p,
    validScore,
  };
}
