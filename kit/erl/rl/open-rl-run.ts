import { metricDirections } from "../../gym/index.js";
import type { GrammarParams } from "../../policy/grammar/index.js";
import { openRun, type Workspace } from "../../store/index.js";
import { checkpointExists } from "../checkpoint-store.js";
import { loadCheckpoint, resolvePolicyParams } from "../checkpoints.js";
import { CheckpointExistsError, ErlError } from "../errors.js";
import { ParentStore } from "./parent-store.js";
import { RlConfig } from "./rl-config.js";
import { readResumeState } from "./rl-store.js";
import { restoreSeedTestScores, seedFromEvolve } from "./seed-parents.js";
import type { TrainRlOptions } from "./train-rl.js";

/** Where a run (re)starts: its config, params, policy version and the learner's state. */
export interface RlStart {
  readonly runId: string;
  readonly cfg: RlConfig;
  readonly params: GrammarParams;
  /** Updates made so far (the policy version). */
  readonly version: number;
  /** Groups written so far (the next group's serial number). */
  readonly serial: number;
  readonly store: ParentStore;
  readonly history: Map<string, number[]>;
  readonly perTask: Map<string, number>;
}

/**
 * Step 1 of trainRL: a new run (table `rl_runs`, kit/store's run lifecycle) or the resume of a stored
 * one. New: the config, a free `to` name (checked before the run row is written), the `from` params,
 * the parent store seeded from evolve runs. Resume: the same tasks and `to`, its stored config
 * (`config.steps` may extend it), and the last stored step's checkpoint, parent store, history and counts.
 */
export async function openRlRun(ws: Workspace, opts: TrainRlOptions, now: () => number): Promise<RlStart> {
  const taskIds = opts.tasks.map((t) => t.meta.id);
  const from = opts.from ?? "default";
  const id = opts.resume ?? opts.runId ?? `rl-${Math.floor(now()).toString(36)}`;
  let state: Omit<RlStart, "runId" | "cfg"> | undefined;
  const run = await openRun<RlConfig>(ws, {
    table: "rl_runs",
    id,
    mode: opts.resume ? "resume" : "new",
    fresh: () => RlConfig.parse(opts.config ?? {}),
    resumed: (config) =>
      RlConfig.parse({ ...(config as object), ...(opts.config?.steps ? { steps: opts.config.steps } : {}) }),
    columns: (cfg) => ({
      tasks: JSON.stringify(taskIds),
      from_checkpoint: from,
      to_name: opts.to,
      mode: cfg.mode,
      seed: cfg.seed,
    }),
    check: ({ row }) => {
      const tasks = JSON.parse(row.tasks as string) as string[];
      if (tasks.join(",") !== taskIds.join(","))
        throw new ErlError(`RL run "${id}" trained on ${tasks.join(",")}: pass --tasks ${tasks.join(",")}`);
      if (row.to_name !== opts.to)
        throw new ErlError(`RL run "${id}" writes checkpoint "${row.to_name}": pass --to ${row.to_name}`);
    },
    notFound: () =>
      new ErlError(
        `RL run "${id}" is not in workspace ${ws.dir}: list runs with openmle ` +
          `workspace query ${ws.dir} "SELECT run_id FROM rl_runs"`,
      ),
    before: async (stored, cfg) => {
      if (stored) {
        const st = await readResumeState(ws, id, metricDirections(opts.tasks), cfg.keepParents);
        const params = st.checkpoint
          ? (await loadCheckpoint(ws, st.checkpoint)).params
          : (await resolvePolicyParams(stored.row.from_checkpoint as string, ws)).params;
        state = {
          params,
          version: st.step,
          serial: st.groupsWritten,
          store: st.store,
          history: st.history,
          perTask: st.perTask,
        };
        return;
      }
      if (await checkpointExists(ws, opts.to)) {
        throw new CheckpointExistsError(`checkpoint "${opts.to}" already exists in ${ws.dir}: pick another --to name`);
      }
      const params = (await resolvePolicyParams(from, ws)).params;
      state = {
        params,
        version: 0,
        serial: 0,
        store: new ParentStore(cfg.keepParents),
        history: new Map(),
        perTask: new Map(),
      };
    },
    now,
  });
  if (!run.resumed && run.config.seedFromRuns)
    for (const t of opts.tasks) await seedFromEvolve(ws, t, state!.store, state!.history);
  if (run.resumed) for (const t of opts.tasks) await restoreSeedTestScores(ws, t, state!.store);
  return { runId: id, cfg: run.config, ...state! };
}
