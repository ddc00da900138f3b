import type { TaskPackage } from "../../gym/types.js";
import type { NodeView, Operator, OperatorContext } from "../types.js";
import { isSolutionSpec } from "./spec.js";
import { taskShape, type TaskShape } from "./task-shape.js";

/** Bucket edges of training rows and feature columns (upper bounds, exclusive). */
const ROW_BUCKETS: readonly [number, string][] = [
  [500, "<500"],
  [2000, "500-2k"],
  [10000, "2k-10k"],
  [Infinity, ">10k"],
];
const COL_BUCKETS: readonly [number, string][] = [
  [8, "<8"],
  [20, "8-20"],
  [100, "20-100"],
  [Infinity, ">100"],
];
const bucket = (v: number | null, edges: readonly [number, string][]) =>
  v === null ? "?" : edges.find(([hi]) => v < hi)![1];

/**
 * Features of the task's shape, shared by every decision of an operator call (labels `name:value`):
 * `any` (a modality-free bias), `rows:<bucket>`, `cols:<bucket>`, `target:regression|binary|multiclass`,
 * `kind:<k>` for each feature-column kind, `missing:yes|no`, `metric:<name>`.
 */
export function shapeFeatures(shape: TaskShape): string[] {
  return [
    "any",
    `rows:${bucket(shape.nTrain, ROW_BUCKETS)}`,
    `cols:${bucket(shape.nFeatures, COL_BUCKETS)}`,
    `target:${shape.taskType === "regression" ? "regression" : shape.nClasses <= 2 ? "binary" : "multiclass"}`,
    ...shape.columnKinds.map((k) => `kind:${k}`),
    `missing:${shape.missing ? "yes" : "no"}`,
    `metric:${shape.metric}`,
  ];
}

/**
 * Features of the first parent's state (Improve, Debug, Crossover): `parent:<status>`,
 * `parent_models:<n>` (grammar spec), and `parent_rank:best|below|alone`: whether its validation
 * score is at least as good as every other scored node the context shows (other parent,
 * ancestors, siblings) in the task's direction.
 */
export function parentFeatures(context: OperatorContext, higherIsBetter: boolean): string[] {
  const p = context.parents[0];
  if (!p) return [];
  const out = [`parent:${p.status}`];
  if (isSolutionSpec(p.spec)) out.push(`parent_models:${p.spec.models.length}`);
  if (p.validScore !== null && p.status === "success") {
    const others = [...context.parents.slice(1), ...(context.ancestors ?? []), ...(context.siblings ?? [])]
      .filter((v: NodeView) => v.nodeId !== p.nodeId && v.validScore !== null && v.status === "success")
      .map((v) => v.validScore!);
    const sign = higherIsBetter ? 1 : -1;
    const best = others.every((s) => sign * p.validScore! >= sign * s);
    out.push(`parent_rank:${others.length === 0 ? "alone" : best ? "best" : "below"}`);
  }
  return out;
}

/** The decision features of one operator call: a pure function of (task, operator, context), so replay sees the same.
 */
export function decisionFeatures(task: TaskPackage, operator: Operator, context: OperatorContext): string[] {
  const shape = shapeFeatures(taskShape(task));
  return operator === "draft" ? shape : [...shape, ...parentFeatures(context, task.meta.higherIsBetter)];
}
