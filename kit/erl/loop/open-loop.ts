import { openRun, type Workspace } from "../../store/index.js";
import { LoopError } from "../errors.js";
import { frozenConfig, LoopConfig, type LoopConfigInput } from "./loop-config.js";

/**
 * Starts loop `loopId` (table `loops`, kit/store's run lifecycle), or resumes it with its stored
 * config; a resume must name the same training and held-out task sets (LoopError otherwise). A resume may raise
 * `generations` (a finished loop trains on from its last checkpoint: every stage done is skipped), never lower it;
 * every other setting is the stored one, as trainRL's resume may extend its steps. A new loop stores its preset's
 * settings written out (`frozenConfig`), so retuning a preset later does not change what a resume runs.
 */
export async function openLoop(
  ws: Workspace,
  loopId: string,
  train: readonly string[],
  held: readonly string[],
  config: LoopConfigInput | undefined,
  now: () => number,
): Promise<LoopConfig> {
  const run = await openRun<LoopConfig>(ws, {
    table: "loops",
    id: loopId,
    mode: "auto",
    fresh: () => frozenConfig(LoopConfig.parse(config ?? {})),
    resumed: (stored) => {
      const c = LoopConfig.parse(stored);
      const more = config?.generations;
      return more !== undefined && more > c.generations ? { ...c, generations: more } : c;
    },
    columns: () => ({ train_tasks: JSON.stringify(train), heldout_tasks: JSON.stringify(held) }),
    check: ({ row }) => {
      const [st, sh] = [
        JSON.parse(row.train_tasks as string) as string[],
        JSON.parse(row.heldout_tasks as string) as string[],
      ];
      if (st.join(",") !== train.join(",") || sh.join(",") !== held.join(",")) {
        throw new LoopError(
          `loop "${loopId}" was started with ` +
            `training tasks ${st.join(",")} and held-out tasks ${sh.join(",")}: pass the same sets ` +
            `to resume it, or pick a new loop id`,
        );
      }
    },
    now,
  });
  return run.config;
}
