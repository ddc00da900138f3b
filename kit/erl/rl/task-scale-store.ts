import type { Workspace } from "../../store/index.js";
import type { TaskScale } from "./fixed-scale.js";

/** rl_task_bounds: the static bounds a trainRL run used per task (written at its start, read on resume). */

export async function writeTaskScales(ws: Workspace, runId: string, scales: readonly TaskScale[]): Promise<void> {
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM rl_task_bounds WHERE run_id = $r", { r: runId });
    await ws.append(
      "rl_task_bounds",
      scales.map((s) => ({
        run_id: runId,
        task_id: s.taskId,
        higher_is_better: s.higherIsBetter,
        static_best: s.staticBest,
        static_worst: s.staticWorst,
        worst_from: s.worstFrom,
        trivial_score: s.trivialScore,
      })),
    );
  });
}

/** The run's stored scales (none for a run made before schema v12). */
export async function readTaskScales(ws: Workspace, runId: string): Promise<TaskScale[]> {
  const rows = await ws.query<{
    task_id: string;
    higher_is_better: boolean;
    static_best: number | null;
    static_worst: number | null;
    worst_from: TaskScale["worstFrom"];
    trivial_score: number | null;
  }>("SELECT * FROM rl_task_bounds WHERE run_id = $r ORDER BY task_id", { r: runId });
  return rows.map((r) => ({
    taskId: r.task_id,
    higherIsBetter: r.higher_is_better,
    staticBest: r.static_best,
    staticWorst: r.static_worst,
    worstFrom: r.worst_from,
    trivialScore: r.trivial_score,
  }));
}
