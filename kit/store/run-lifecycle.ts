import { WorkspaceError } from "./errors.js";
import { configHash } from "./hash.js";
import { quoteIdent } from "./quote-ident.js";
import type { Row } from "./values.js";
import type { Workspace } from "./workspace.js";

/**
 * One run lifecycle for every table whose rows are runs (evolve's `runs`, trainRL's `rl_runs`, the
 * closed loop's `loops`): create or resume (the stored arguments checked by the caller), `running`,
 * then `finished` / `failed` / `killed` with a summary where the table has one. Every such table has
 * `config` (JSON), `config_hash`, `status`, `started_at`, `ended_at`; time comes only from `now`.
 */
export const RUN_TABLES = {
  runs: { id: "run_id", summary: true },
  rl_runs: { id: "run_id", summary: true },
  loops: { id: "loop_id", summary: false },
} as const satisfies Record<string, { id: string; summary: boolean }>;
export type RunTable = keyof typeof RUN_TABLES;
export type RunStatus = "running" | "finished" | "failed" | "killed";

/** A stored run row, with its config parsed from JSON. */
export interface StoredRun {
  readonly id: string;
  readonly status: RunStatus;
  readonly config: unknown;
  readonly row: Readonly<Row>;
}

const parseJson = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v);

/** The stored row of run `id` in `table`, or null. */
export async function readRun(ws: Workspace, table: RunTable, id: string): Promise<StoredRun | null> {
  const idCol = RUN_TABLES[table].id;
  const [row] = await ws.query(`SELECT * FROM ${table} WHERE ${idCol} = $id`, { id });
  if (!row) return null;
  return { id, status: row.status as RunStatus, config: parseJson(row.config), row };
}

/** Inserts a `running` row: the table's own columns, the config and its hash, started now. */
export async function insertRun(
  ws: Workspace,
  table: RunTable,
  run: { id: string; config: unknown; columns: Row; now?: () => number },
): Promise<void> {
  const started = new Date((run.now ?? Date.now)());
  await ws.append(table, [
    {
      [RUN_TABLES[table].id]: run.id,
      ...run.columns,
      config: run.config,
      config_hash: configHash(run.config),
      status: "running",
      started_at: started,
    },
  ]);
}

/** Marks a stored run `running` again (a resume): its end time is cleared. */
export async function markRunning(ws: Workspace, table: RunTable, id: string): Promise<void> {
  await ws.exec(`UPDATE ${table} SET status = 'running', ended_at = NULL WHERE ${RUN_TABLES[table].id} = $id`, { id });
}

/**
 * Ends a run: its status, its summary (tables that keep one), its end time, and the table's own `columns`
 * that are known only at the end (evo's final champion, runs.champion_*), all in one statement.
 */
export async function endRun(
  ws: Workspace,
  table: RunTable,
  id: string,
  status: Exclude<RunStatus, "running">,
  summary?: unknown,
  now: () => number = Date.now,
  columns: Readonly<Row> = {},
): Promise<void> {
  const { id: idCol, summary: hasSummary } = RUN_TABLES[table];
  // Microseconds since the epoch, as the appender writes started_at (a JS Date is no DuckDB parameter).
  const us = Math.round(now() * 1000);
  const own = Object.keys(columns).map((c, i) => `${quoteIdent(c)} = $c${i}`);
  const set = [hasSummary ? "status = $status, summary = $summary" : "status = $status", ...own].join(", ");
  await ws.exec(`UPDATE ${table} SET ${set}, ended_at = make_timestamp($us::BIGINT) WHERE ${idCol} = $id`, {
    status,
    us,
    id,
    ...(hasSummary ? { summary: JSON.stringify(summary ?? null) } : {}),
    ...Object.fromEntries(Object.values(columns).map((v, i) => [`c${i}`, v])),
  });
}

/** How a run is opened: `new` (the id must be free), `resume` (it must exist), `auto` (either). */
export type OpenMode = "new" | "resume" | "auto";

export interface OpenRunSpec<C> {
  readonly table: RunTable;
  readonly id: string;
  readonly mode: OpenMode;
  /** The config of a new run. */
  readonly fresh: () => C;
  /** The config of a resumed run, from its stored config (upgrade it, extend its steps…). */
  readonly resumed: (stored: unknown, row: Readonly<Row>) => C;
  /** The table's own columns of a new row (task ids, seed…). */
  readonly columns: (config: C) => Row;
  /** Compares a stored row with this call's arguments; throws the caller's typed error on a mismatch. */
  readonly check?: (stored: StoredRun) => void;
  /** The caller's typed error for `resume` of an id that is not stored (default: a WorkspaceError). */
  readonly notFound?: () => Error;
  /** Runs between the checks and the row's write: the caller's own checks and loads (stored: null when new). */
  readonly before?: (stored: StoredRun | null, config: C) => Promise<void>;
  readonly now?: () => number;
}

/** An opened run: its id, its config and whether it was resumed. */
export interface OpenedRun<C> {
  readonly id: string;
  readonly config: C;
  readonly resumed: boolean;
  readonly stored: StoredRun | null;
}

/**
 * Create or resume a run: 1. read the stored row; 2. `resume` without one → notFound(); 3. a stored row
 * is checked and its config re-parsed, else the fresh config is made; 4. `before` runs; 5. the row is
 * inserted (`running`) or set `running` again. A `new` run whose id is taken resumes only in `auto` mode.
 */
export async function openRun<C>(ws: Workspace, spec: OpenRunSpec<C>): Promise<OpenedRun<C>> {
  const stored = spec.mode === "new" ? null : await readRun(ws, spec.table, spec.id);
  if (spec.mode === "resume" && !stored) {
    throw spec.notFound?.() ?? new WorkspaceError(`no ${spec.table} row "${spec.id}" in ${ws.dir} to resume`, ws.dir);
  }
  if (stored) spec.check?.(stored);
  const config = stored ? spec.resumed(stored.config, stored.row) : spec.fresh();
  await spec.before?.(stored, config);
  if (stored) await markRunning(ws, spec.table, spec.id);
  else await insertRun(ws, spec.table, { id: spec.id, config, columns: spec.columns(config), now: spec.now });
  return { id: spec.id, config, resumed: !!stored, stored };
}
