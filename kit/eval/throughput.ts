/**
 * A run's throughput: nodes per minute, the figure a researcher plans a search with, and where the time went.
 *   wall_s        = (end − start) / 1000, end = the run's last end (runs.ended_at) or, while it runs (no end),
 *                   the time its latest node was written (nodes.created_at); never below 0;
 *   nodes_per_min = nodes / (wall_s / 60);
 *   program_share = min(1, max(0, program_s / (wall_s · workers))),   kit_share = 1 − program_share,
 * with program_s the sum of the nodes' program seconds (the program's process, start to exit: node_timings.program_s,
 * or the node's own execution record's wall_s; 0 for a record reused from the store) and workers the run's
 * executions in flight (EvolveConfig.workers; each worker lane offers wall_s seconds: the denominator is lane time).
 * Edge cases, all without NaN:
 *   - no start, or a running run without nodes (no end yet): wall_s, nodes_per_min and both shares are null;
 *   - wall_s = 0 (ended the moment it started, or an end before the start): the rates are null, wall_s is 0;
 *   - 0 nodes with wall_s > 0: 0 nodes/min, program_share 0, kit_share 1;
 *   - a resumed run: start is its first start and end its last end, so the time it stood stopped between
 *     sessions counts (the runs table keeps no per-session times): its nodes/min is lower than while it ran;
 *   - workers not a finite number ≥ 1 (an old config without the field): 1.
 */
export interface ThroughputInput {
  /** Executed nodes of the run. */
  readonly nodes: number;
  /** When the run first started (ms since the epoch); null when unknown. */
  readonly startedMs: number | null;
  /** When it last ended (ms since the epoch); null while it runs. */
  readonly endedMs: number | null;
  /** When its latest node was written (ms since the epoch); null without nodes. */
  readonly lastNodeMs: number | null;
  /** Sum of the nodes' program seconds. */
  readonly programS: number;
  /** Executions in flight (EvolveConfig.workers). */
  readonly workers: number;
}

export interface Throughput {
  readonly nodes: number;
  /** The worker count used (≥ 1). */
  readonly workers: number;
  /** What ended the wall time: the run's end, its latest node (running), or nothing (null wall time). */
  readonly wallUntil: "run-end" | "last-node" | "none";
  readonly wallS: number | null;
  readonly programS: number;
  readonly nodesPerMin: number | null;
  /** Share of the workers' wall time spent in programs, in [0, 1]. */
  readonly programShare: number | null;
  /** 1 − programShare: planning, policy, context, sandbox set-up, scoring, store. */
  readonly kitShare: number | null;
}

const finite = (x: number | null): x is number => x !== null && Number.isFinite(x);

export function throughput(r: ThroughputInput): Throughput {
  const workers = Number.isFinite(r.workers) && r.workers >= 1 ? Math.floor(r.workers) : 1;
  const programS = Number.isFinite(r.programS) ? Math.max(0, r.programS) : 0;
  const wallUntil = finite(r.endedMs) ? "run-end" : finite(r.lastNodeMs) ? "last-node" : "none";
  const end = wallUntil === "run-end" ? r.endedMs : wallUntil === "last-node" ? r.lastNodeMs : null;
  const wallS = finite(r.startedMs) && finite(end) ? Math.max(0, (end - r.startedMs) / 1000) : null;
  const base = { nodes: r.nodes, workers, wallUntil: wallS === null ? "none" : wallUntil, wallS, programS } as const;
  if (wallS === null || wallS === 0) return { ...base, nodesPerMin: null, programShare: null, kitShare: null };
  const programShare = Math.min(1, programS / (wallS * workers));
  return { ...base, nodesPerMin: r.nodes / (wallS / 60), programShare, kitShare: 1 - programShare };
}

/** A rate for people: whole from 100 up, one decimal from 10, else 3 significant digits; null/NaN → "—". */
export function formatRate(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return "—";
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : String(Number(x.toPrecision(3)));
}

/** "12.4 nodes/min" (formatRate), "— nodes/min" without a wall time. */
export const formatNodesPerMin = (x: number | null): string => `${formatRate(x)} nodes/min`;

/** A share as a percentage: whole from 10 % up (and 0), one decimal below; null → "—". */
export function formatShare(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return "—";
  const p = 100 * x;
  return `${p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(1)}%`;
}

/**
 * The programs / kit split as percentages that add up to 100: the programs' share by formatShare, the kit's as
 * 100 − the programs' shown percentage (37.5 % → "38%" and "62%", not "63%"); null → "—" both.
 */
export function formatSplit(programShare: number | null): { readonly programs: string; readonly kit: string } {
  if (programShare === null || !Number.isFinite(programShare)) return { programs: "—", kit: "—" };
  const programs = formatShare(programShare);
  return { programs, kit: formatShare(1 - Number.parseFloat(programs) / 100) };
}

/** "63% in programs, 37% kit" (or "— in programs, — kit" without a wall time). */
export function formatTimeSplit(t: Pick<Throughput, "programShare">): string {
  const { programs, kit } = formatSplit(t.programShare);
  return `${programs} in programs, ${kit} kit`;
}
