import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Workspace } from "../../store/index.js";
import { ErlError } from "../errors.js";
import { copyRollouts, rlRunIds } from "./rollout-export-store.js";

/** Write the run's rollouts to `file`: Parquet when it ends in .parquet, JSON Lines when .jsonl. Returns the row count.
 */
export async function exportRollouts(
  ws: Workspace,
  runId: string,
  file: string,
): Promise<{ file: string; rows: number }> {
  const format = file.endsWith(".parquet") ? "parquet" : file.endsWith(".jsonl") ? "json" : null;
  if (!format) throw new ErlError(`--out ${file}: name the file *.parquet or *.jsonl`);
  const runs = await rlRunIds(ws);
  if (!runs.includes(runId)) {
    throw new ErlError(
      `no RL run "${runId}" in ${ws.dir}; ` +
        (runs.length ? `it has: ${runs.join(", ")}` : "it has none (train with `openmle rl train`)"),
    );
  }
  const out = resolve(file);
  mkdirSync(dirname(out), { recursive: true });
  return { file: out, rows: await copyRollouts(ws, runId, out, format) };
}
