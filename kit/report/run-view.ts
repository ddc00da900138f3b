import { existsSync } from "node:fs";
import { join } from "node:path";
import { EvolveConfig, loadNodes, upgradeStoredConfig, type EvoNode } from "../evo/index.js";
import { peekConfirmIds } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { EmptyRunError, UnknownRunError } from "./errors.js";
import { readNodeRecords, readReportRuns } from "./report-store.js";

/** A node with its execution record and experience card, as the report shows it. */
export interface ViewNode extends EvoNode {
  /** The experience card's columns (cards table), formatted later. */
  readonly card: Readonly<Record<string, unknown>>;
  /** The execution record's columns (executions table), without the tails shown separately. */
  readonly record: Readonly<Record<string, unknown>>;
  readonly stderrTail: string;
}

/** One run as the report and the dashboard show it. */
export interface RunView {
  readonly runId: string;
  readonly taskId: string;
  readonly taskName: string | null;
  readonly metric: string | null;
  readonly higherIsBetter: boolean;
  readonly harness: string;
  readonly policy: string;
  /** Model or checkpoint behind the policy, when the config names one. */
  readonly model: string | null;
  readonly seed: number | null;
  readonly status: string;
  /** The run's evolve settings (stored config parsed with defaults); null when the run stored none. */
  readonly config: EvolveConfig | null;
  /** kit/evo's RunSummary as stored at the end of the run (null while running). */
  readonly summary: Readonly<Record<string, unknown>> | null;
  readonly nodes: readonly ViewNode[];
}

const obj = (v: unknown): Record<string, unknown> | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === "object") return v as Record<string, unknown>;
  try {
    const o = JSON.parse(String(v)) as unknown;
    return o && typeof o === "object" ? (o as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** True when `dir` holds a workspace database. */
export const isWorkspaceDir = (dir: string) => existsSync(join(dir, "openmle.duckdb"));

/**
 * The runs of a workspace (or the one `runId`) with their nodes, records and cards, in run order; runs on tasks of
 * the sealed suite:confirm are left out (openmle experiment show reads them, logging the look).
 * Throws UnknownRunError for a run that is not there and EmptyRunError when there is nothing to show.
 */
export async function loadRunViews(ws: Workspace, runId?: string): Promise<RunView[]> {
  // Runs on the sealed suite:confirm's tasks are read only through their registered experiment (a logged look).
  const sealed = peekConfirmIds();
  const runs = (await readReportRuns(ws)).filter((r) => !sealed.has(String(r.task_id)));
  const chosen = runId === undefined ? runs : runs.filter((r) => r.run_id === runId);
  if (runId !== undefined && !chosen.length)
    throw new UnknownRunError(
      runId,
      ws.dir,
      runs.map((r) => String(r.run_id)),
    );
  const out: RunView[] = [];
  for (const r of chosen) {
    const id = String(r.run_id);
    const base = await loadNodes(ws, id);
    const extra = await readNodeRecords(ws, id);
    const byId = new Map(extra.map((x) => [String(x.node_id), x]));
    const nodes: ViewNode[] = base.map((n) => {
      const x = byId.get(n.nodeId);
      const card = obj(x?.card) ?? {};
      const { stdout_tail: _o, stderr_tail: stderr, traceback: _t, ...record } = obj(x?.record) ?? {};
      const { plan: _p, run_id: _r, node_id: _n, ...cardRest } = card;
      return { ...n, card: cardRest, record, stderrTail: typeof stderr === "string" ? stderr : "" };
    });
    const cfgRaw = obj(r.config);
    const parsed = cfgRaw ? EvolveConfig.safeParse(upgradeStoredConfig(cfgRaw)) : null;
    out.push({
      runId: id,
      taskId: String(r.task_id),
      taskName: (r.task_name as string | null) ?? null,
      metric: (r.metric as string | null) ?? null,
      higherIsBetter:
        r.higher_is_better === null || r.higher_is_better === undefined ? true : Boolean(r.higher_is_better),
      harness: String(r.harness ?? "unknown"),
      policy: String(r.policy ?? "unknown"),
      model:
        typeof cfgRaw?.model === "string"
          ? cfgRaw.model
          : typeof cfgRaw?.checkpoint === "string"
            ? cfgRaw.checkpoint
            : null,
      seed: typeof r.seed === "number" ? r.seed : r.seed === null || r.seed === undefined ? null : Number(r.seed),
      status: String(r.status ?? "unknown"),
      config: parsed?.success ? parsed.data : null,
      summary: obj(r.summary),
      nodes,
    });
  }
  if (runId !== undefined && !out[0]!.nodes.length) throw new EmptyRunError(`run "${runId}"`, ws.dir);
  if (runId === undefined && !out.some((v) => v.nodes.length))
    throw new EmptyRunError(runs.length ? "every run" : "the workspace", ws.dir);
  return out.filter((v) => v.nodes.length);
}
