import type { TaskMeta, TaskPackage } from "../../../gym/types.js";
import type { NodeView, OperatorContext, ShownNode } from "../../types.js";
import type { GrammarParams } from "../params.js";

/** A task package value for operator tests that only read metadata (no files are touched). */
export function metaTask(over: Partial<TaskMeta> & Pick<TaskMeta, "modality">): TaskPackage {
  const meta: TaskMeta = {
    id: `t-${over.modality}`, name: `test ${over.modality}`, taskType: "classification", idColumn: "id", targetColumns: ["label"],
    trainTarget: "label", metric: "accuracy", higherIsBetter: true, classes: ["a", "b", "c"],
    files: { train: "train.csv", test: "test.csv", sampleSubmission: "sample_submission.csv" }, nTrain: 3000, ...over,
  };
  return { dir: "/nonexistent", publicDir: "/nonexistent/data/public", privateDir: "/nonexistent/data/private", meta, description: "" };
}

export const BUDGET = { remainingSteps: 10, remainingTimeS: 3600, perRunTimeLimitS: 60 } as const;
export const NO_PARENTS: OperatorContext = { parents: [], budget: BUDGET };

/** A node view of a grammar output. */
export function view(nodeId: string, spec: unknown, over: Partial<NodeView> = {}): NodeView {
  return { nodeId, operator: "draft", code: "", plan: "", spec, status: "success", validScore: 0.8, errorSignature: null, ...over };
}

/** Params that make the given (decision → value) choices (near) certain; everything else default. */
export function forcing(base: GrammarParams, picks: Record<string, string>): GrammarParams {
  const logits: Record<string, Record<string, number>> = { ...base.logits };
  for (const [name, value] of Object.entries(picks)) logits[name] = { ...(logits[name] ?? {}), [value]: 60 };
  return { version: 1, logits };
}

/** A shown entry: success with a score, or a failure when score is a status string. */
export function shown(id: string, models: string[], score: number | string, over: Partial<ShownNode> = {}): ShownNode {
  const ok = typeof score === "number";
  return {
    nodeId: id,
    operator: "draft",
    role: "history",
    methodFamily: "sklearn",
    models,
    status: ok ? "success" : (score as ShownNode["status"]),
    validScore: ok ? score : null,
    errorSignature: ok ? null : String(score),
    gain: null,
    change: null,
    idea: "",
    text: `- ${id}`,
    ...over,
  };
}
