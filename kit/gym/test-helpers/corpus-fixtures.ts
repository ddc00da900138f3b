// Test fixtures shared by the corpus tests (store, index, CLI): hand-made records, not a build's output.
import type { SuitedTask } from "../corpus/corpus-store.js";
import type { StageRecord } from "../corpus/types.js";

export const stage = (
  buildId: string,
  candidate: string,
  s: StageRecord["stage"],
  status: StageRecord["status"],
  reason = "",
  taskId?: string,
): StageRecord => ({ buildId, candidate, stage: s, status, reason, ms: 12.5, ...(taskId ? { taskId } : {}) });

export const suited = (id: string, over: Partial<SuitedTask> = {}): SuitedTask => ({
  id,
  candidate: id,
  study: id,
  source: "r",
  package: "r-cran-mass",
  modality: "tabular",
  taskType: "regression",
  metric: "rmse",
  nRows: 506,
  packageBytes: 40_960,
  packageHash: `hash-${id}`,
  headroom: { constant: 9.2, reference: 4.1, referenceModel: "ridge", normalised: 0.55 },
  synthesised: false,
  suite: "train",
  ...over,
});
