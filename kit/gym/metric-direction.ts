import { UnknownTaskError } from "./errors.js";
import type { TaskMeta } from "./types.js";

/**
 * The metric direction of a set of tasks as one function: `higherIsBetter(id)` is task `id`'s
 * `meta.higherIsBetter`. Every comparison of scores across tasks (normalisation, win rates, RL bounds,
 * the held-out report) reads the direction through it, so all of them agree.
 *
 * An id outside the set throws rather than guess a direction: a guessed direction silently inverts
 * every comparison made with it (two callers once guessed "higher" and one "lower" for the same id).
 */
export function metricDirections(
  tasks: readonly { readonly meta: Pick<TaskMeta, "id" | "higherIsBetter"> }[],
): (taskId: string) => boolean {
  const byId = new Map(tasks.map((t) => [t.meta.id, t.meta.higherIsBetter]));
  return (taskId) => {
    const h = byId.get(taskId);
    if (h === undefined)
      throw new UnknownTaskError(
        `task ${taskId} is not among the ${byId.size} tasks whose metric direction is known here; ` +
          "pass its package with the others",
        taskId,
      );
    return h;
  };
}
