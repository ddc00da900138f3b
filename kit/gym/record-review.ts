import { randomUUID } from "node:crypto";
import type { Workspace } from "../store/index.js";
import type { QualityReport } from "./check-result.js";
import type { SemanticReview } from "./semantic-gate.js";
import { appendTaskReviews, replaceTask, type TaskReviewRow } from "./task-store.js";
import type { TaskPackage } from "./types.js";

/**
 * Store a task (upsert into `tasks`) and its reviews (append to `task_reviews`): the deterministic
 * checks as kind 'quality' (verdict pass/fail) and the LLM gate as kind 'semantic'. Returns review ids.
 */
export async function recordTaskReview(
  ws: Workspace,
  task: TaskPackage,
  reviews: { quality?: QualityReport; semantic?: SemanticReview },
): Promise<string[]> {
  const m = task.meta;
  const ids: string[] = [];
  await ws.transaction(async () => {
    await replaceTask(ws, {
      task_id: m.id,
      name: m.name,
      modality: m.modality,
      task_type: m.taskType,
      metric: m.metric,
      higher_is_better: m.higherIsBetter,
      dir: task.dir,
      source: m.source ?? null,
      spec: JSON.stringify(m),
    });
    const rows: TaskReviewRow[] = [];
    if (reviews.quality) {
      const q = reviews.quality;
      ids.push(`${m.id}-quality-${randomUUID().slice(0, 8)}`);
      rows.push({
        review_id: ids.at(-1)!,
        task_id: m.id,
        kind: "quality",
        verdict: q.passed ? "pass" : "fail",
        accepted: q.passed && q.metricValid,
        report: JSON.stringify(q),
      });
    }
    if (reviews.semantic) {
      const s = reviews.semantic;
      ids.push(`${m.id}-semantic-${randomUUID().slice(0, 8)}`);
      rows.push({
        review_id: ids.at(-1)!,
        task_id: m.id,
        kind: "semantic",
        verdict: s.verdict,
        accepted: s.accepted,
        report: JSON.stringify(s),
      });
    }
    await appendTaskReviews(ws, rows);
  });
  return ids;
}
