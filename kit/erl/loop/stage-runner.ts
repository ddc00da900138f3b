import type { Workspace } from "../../store/index.js";
import type { LoopEvent } from "./loop.js";
import { markStage, stageResult, type LoopStage } from "./loop-store.js";

/** Runs one stage of a loop once: a stage recorded `done` returns its stored result. */
export type RunStage = <T>(generation: number, name: LoopStage, fn: () => Promise<T>) => Promise<T>;

/**
 * The loop's stage runner: a stage that is `done` in `loop_stages` is skipped (its stored result
 * returned); any other (absent, or left `running` by a kill) is marked `running`, run, and marked
 * `done` with its result, so a resumed loop redoes exactly the stage a kill interrupted.
 */
export function stageRunner(ws: Workspace, loopId: string, emit: (e: LoopEvent) => void, now: () => number): RunStage {
  return async <T>(generation: number, name: LoopStage, fn: () => Promise<T>): Promise<T> => {
    const done = await stageResult<T>(ws, loopId, generation, name);
    if (done !== null) {
      emit({ type: "stage-skipped", generation, stage: name });
      return done;
    }
    await markStage(ws, loopId, generation, name, "running", null, now);
    emit({ type: "stage-start", generation, stage: name });
    const result = await fn();
    await markStage(ws, loopId, generation, name, "done", result, now);
    emit({ type: "stage-done", generation, stage: name, result });
    return result;
  };
}
