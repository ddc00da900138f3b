import type { Workspace } from "../store/index.js";

/** One `policy_checkpoints` row as stored (params, config and metrics as JSON text). */
export interface CheckpointRow {
  name: string;
  policy: string;
  format_version: number;
  kit_version: string;
  parent: string | null;
  source: string;
  dataset: string | null;
  params: string;
  config: string | null;
  config_hash: string;
  metrics: string | null;
  created_at: Date | string;
}

/** A row without its params and config (what a listing reads). */
export type CheckpointSummaryRow = Omit<CheckpointRow, "params" | "config">;

/** Whether a checkpoint named `name` is stored. */
export async function checkpointExists(ws: Workspace, name: string): Promise<boolean> {
  return (await ws.query("SELECT name FROM policy_checkpoints WHERE name = $name", { name })).length > 0;
}

/** Writes a checkpoint row; with `replace`, the row of that name is deleted first, in one transaction. */
export async function writeCheckpointRow(ws: Workspace, row: CheckpointRow, replace: boolean): Promise<void> {
  await ws.transaction(async () => {
    if (replace) await ws.exec("DELETE FROM policy_checkpoints WHERE name = $name", { name: row.name });
    await ws.append("policy_checkpoints", [{ ...row }]);
  });
}

/** The stored row of checkpoint `name`, or null. */
export async function readCheckpointRow(ws: Workspace, name: string): Promise<CheckpointRow | null> {
  const [row] = await ws.query<CheckpointRow>("SELECT * FROM policy_checkpoints WHERE name = $name", { name });
  return row ?? null;
}

/** Every checkpoint row without params and config, oldest first. */
export async function checkpointSummaryRows(ws: Workspace): Promise<CheckpointSummaryRow[]> {
  return ws.query<CheckpointSummaryRow>(
    "SELECT * EXCLUDE (params, config) FROM policy_checkpoints ORDER BY created_at, name",
  );
}
