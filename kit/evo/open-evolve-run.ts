import { randomUUID } from "node:crypto";
import type { TaskPackage } from "../gym/types.js";
import { openRun, type Workspace } from "../store/index.js";
import { EvolveConfig, upgradeStoredConfig, type EvolveConfigInput } from "./config.js";
import { ResumeError } from "./errors.js";
import { detachOrphanExecutions, loadNodes } from "./node-store.js";
import type { EvoNode } from "./types.js";

export interface EvolveRunSpec {
  readonly task: TaskPackage;
  readonly policyName: string;
  readonly config?: EvolveConfigInput;
  /** Continue this stored run: its stored config is used; `config.steps` may extend it. */
  readonly resume?: string;
  /** The id of a new run (default `run-<8 hex of a uuid>`). */
  readonly runId?: string;
  /** When the run started (ms since the epoch, from evolve's clock): a new row's started_at. */
  readonly startedAt: number;
}

/** An opened `runs` row: its id and config, and the nodes a resumed run already has (step order). */
export interface OpenedEvolveRun {
  readonly runId: string;
  readonly cfg: EvolveConfig;
  readonly nodes: EvoNode[];
  readonly resumed: boolean;
}

/**
 * evolve's run on the one run lifecycle (kit/store/run-lifecycle.ts). New: the config parsed, a `running`
 * row inserted. Resume: the stored row must exist and be of this task (ResumeError says what to pass),
 * its config is upgraded and re-parsed, its nodes loaded, records orphaned by a kill detached
 * (detachOrphanExecutions), and the row set `running` again.
 */
export async function openEvolveRun(ws: Workspace, o: EvolveRunSpec): Promise<OpenedEvolveRun> {
  const taskId = o.task.meta.id;
  const id = o.resume ? o.resume : (o.runId ?? `run-${randomUUID().slice(0, 8)}`);
  let nodes: EvoNode[] = [];
  const run = await openRun<EvolveConfig>(ws, {
    table: "runs",
    id,
    mode: o.resume ? "resume" : "new",
    fresh: () => EvolveConfig.parse(o.config ?? {}),
    resumed: (stored) => {
      const cfg = upgradeStoredConfig(stored as Record<string, unknown>) as EvolveConfigInput;
      return EvolveConfig.parse({ ...cfg, ...(o.config?.steps ? { steps: o.config.steps } : {}) });
    },
    columns: (cfg) => ({ task_id: taskId, harness: cfg.harness, policy: o.policyName, seed: cfg.seed }),
    check: (s) => {
      const stored = s.row.task_id;
      if (stored !== taskId) {
        throw new ResumeError(`run "${id}" is for task "${stored}", not "${taskId}". Pass --task ${stored}.`);
      }
    },
    notFound: () =>
      new ResumeError(
        `run "${id}" is not in workspace ${ws.dir}. ` +
          `List runs with: openmle workspace query ${ws.dir} "SELECT run_id FROM runs".`,
      ),
    before: async (stored) => {
      if (!stored) return;
      nodes = await loadNodes(ws, id);
      await detachOrphanExecutions(ws, id);
    },
    now: () => o.startedAt,
  });
  return { runId: run.id, cfg: run.config, nodes, resumed: run.resumed };
}
