import { randomUUID } from "node:crypto";
import { configHash } from "./hash.js";
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

/** Insert a runs row with the config and its hash; returns the run id. */
export async function startRun(ws: Workspace, run: RunStart): Promise<string> {
  const runId = run.runId ?? `run-${randomUUID().slice(0, 8)}`;
  await ws.append("runs", [
    {
      run_id: runId,
      task_id: run.taskId,
      harness: run.harness,
      policy: run.policy,
      seed: run.seed,
      config: run.config,
      config_hash: configHash(run.config),
      status: "running",
      started_at: new Date(),
    },
  ]);
  return runId;
}

export async function finishRun(ws: Workspace, runId: string, status: "finished" | "failed" | "killed", summary: unknown): Promise<void> {
  await ws.exec("UPDATE runs SET status = $status, summary = $summary, ended_at = current_timestamp WHERE run_id = $runId", {
    status,
    summary: JSON.stringify(summary ?? null),
    runId,
  });
}
