import { randomUUID } from "node:crypto";
import { endRun, insertRun } from "./run-lifecycle.js";
import type { Row } from "./values.js";
import type { Workspace } from "./workspace.js";

export interface RunStart {
  readonly taskId: string;
  readonly harness: string;
  readonly policy: string;
  readonly seed: number;
  /** The full (parsed) configuration; its hash ignores paths and run names. */
  readonly config: unknown;
  readonly runId?: string;
}

/** Insert a `runs` row with the config and its hash; returns the run id (kit/store/run-lifecycle.ts). */
export async function startRun(ws: Workspace, run: RunStart, now: () => number = Date.now): Promise<string> {
  const runId = run.runId ?? `run-${randomUUID().slice(0, 8)}`;
  const columns = { task_id: run.taskId, harness: run.harness, policy: run.policy, seed: run.seed };
  await insertRun(ws, "runs", { id: runId, config: run.config, columns, now });
  return runId;
}

/** End a `runs` row with its summary (and `columns` such as the final champion's, runs.champion_*). */
export async function finishRun(
  ws: Workspace,
  runId: string,
  status: "finished" | "failed" | "killed",
  summary: unknown,
  now: () => number = Date.now,
  columns: Readonly<Row> = {},
): Promise<void> {
  await endRun(ws, "runs", runId, status, summary, now, columns);
}
