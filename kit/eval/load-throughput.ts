import type { Workspace } from "../store/index.js";
import { readRunThroughput } from "./eval-store.js";
import { throughput, type Throughput } from "./throughput.js";

/** One run's throughput (throughput.ts) with its id and status. */
export interface RunThroughput extends Throughput {
  readonly runId: string;
  readonly status: string;
}

/** The throughput of every run of the workspace (or of `runIds`), in start order. */
export async function loadThroughput(ws: Workspace, runIds?: readonly string[]): Promise<RunThroughput[]> {
  return (await readRunThroughput(ws, runIds)).map((r) => ({
    runId: r.run_id,
    status: r.status ?? "unknown",
    ...throughput({
      nodes: Number(r.nodes),
      startedMs: r.started_ms === null ? null : Number(r.started_ms),
      endedMs: r.ended_ms === null ? null : Number(r.ended_ms),
      lastNodeMs: r.last_node_ms === null ? null : Number(r.last_node_ms),
      programS: Number(r.program_s),
      workers: r.workers === null ? 1 : Number(r.workers),
    }),
  }));
}
