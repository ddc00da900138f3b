import type { Workspace } from "../store/index.js";
import { htmlTable } from "./html-table.js";
import { readTimingTotals, TIMING_PARTS } from "./report-store.js";

/** Where the nodes of one run (or of all runs: run_id "all") spent their time, in total seconds. */
export interface TimeSplitRow {
  readonly run_id: string;
  readonly nodes: number;
  readonly node_s: number;
  readonly policy_s: number;
  readonly context_s: number;
  readonly sandbox_s: number;
  readonly program_s: number;
  readonly scoring_s: number;
  readonly store_s: number;
  /** node_s minus the named parts: planning the step, waiting for the store, the timing row itself. */
  readonly other_s: number;
  /** (node_s − program_s) / node_s: everything but the program itself. */
  readonly kit_share: number;
}

/** Per-run totals from the node_timings table, then one "all" row; empty when nothing was timed. */
export async function timeSplit(ws: Workspace): Promise<TimeSplitRow[]> {
  const rows = await readTimingTotals(ws);
  return rows
    .filter((r) => r.nodes > 0)
    .map((r) => {
      const parts = TIMING_PARTS.reduce((s, p) => s + r[p], 0);
      return {
        run_id: r.run_id ?? "all",
        nodes: r.nodes,
        node_s: r.node_s,
        policy_s: r.policy_s,
        context_s: r.context_s,
        sandbox_s: r.sandbox_s,
        program_s: r.program_s,
        scoring_s: r.scoring_s,
        store_s: r.store_s,
        other_s: Math.max(0, r.node_s - parts),
        kit_share: r.node_s > 0 ? Math.max(0, r.node_s - r.program_s) / r.node_s : 0,
      };
    });
}

/** The split as an HTML table for people: seconds per node and shares of node wall time. */
export function timeSplitTable(rows: readonly TimeSplitRow[]): string {
  const pct = (x: number, of: number) => (of > 0 ? `${((100 * x) / of).toFixed(1)} %` : "–");
  const per = (x: number, n: number) => `${(x / Math.max(1, n)).toFixed(3)} s`;
  return htmlTable(
    rows.map((r) => ({
      run: r.run_id,
      nodes: r.nodes,
      "node (mean)": per(r.node_s, r.nodes),
      program: pct(r.program_s, r.node_s),
      policy: pct(r.policy_s, r.node_s),
      context: pct(r.context_s, r.node_s),
      sandbox: pct(r.sandbox_s, r.node_s),
      scoring: pct(r.scoring_s, r.node_s),
      store: pct(r.store_s, r.node_s),
      other: pct(r.other_s, r.node_s),
      "kit share": pct(r.kit_share, 1),
    })),
    { caption: "Where node time goes (share of node wall time; kit share = everything but the program)", maxRows: 200 },
  );
}
