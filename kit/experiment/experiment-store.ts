// kit/experiment's tables (experiments, experiment_runs, experiment_results, experiment_looks) and its read model of
// the loop's held-out rows on dev tasks (the power line's variance source): typed functions in, typed rows out.
import type { Workspace } from "../store/index.js";
import type { CellOutcome, Medal } from "./arm-measures.js";
import type { Look, RegistrationLabel, RunState } from "./registration.js";

/** One registration as stored. */
export interface RegistrationRow {
  readonly registrationId: string;
  readonly name: string;
  readonly question: string;
  /** The resolved plan's JSON text (experiment-plan.ts parseResolvedPlan reads it). */
  readonly plan: string;
  readonly planHash: string;
  readonly kitCommit: string;
  readonly registeredAt: Date;
  readonly label: RegistrationLabel;
  readonly powerLine: string;
  readonly warnings: readonly string[];
}

/** One run as stored. */
export interface ExperimentRunRow extends RunState {
  readonly registrationId: string;
  readonly kitCommit: string;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
  /** The summary JSON parsed (baselines while running; measures and verdict once completed); null when none. */
  readonly summary: unknown;
  readonly error: string | null;
}

/** One stored cell: its outcome and how it was made. */
export interface ResultRow extends CellOutcome {
  readonly runId: string;
  readonly status: string;
  readonly validScore: number | null;
  readonly validRate: number | null;
  readonly evolveRunId: string | null;
  readonly sandboxS: number | null;
}

const num = (x: unknown): number | null => (x === null || x === undefined ? null : Number(x));
const date = (x: unknown): Date => (x instanceof Date ? x : new Date(String(x)));
const json = (x: unknown): unknown => (typeof x === "string" ? JSON.parse(x) : (x ?? null));

export async function insertRegistration(ws: Workspace, r: RegistrationRow): Promise<void> {
  await ws.append("experiments", [
    {
      registration_id: r.registrationId,
      name: r.name,
      question: r.question,
      plan: r.plan,
      plan_hash: r.planHash,
      kit_commit: r.kitCommit,
      registered_at: r.registeredAt,
      label: r.label,
      power_line: r.powerLine,
      warnings: JSON.stringify(r.warnings),
    },
  ]);
}

function registrationOf(r: Record<string, unknown>): RegistrationRow {
  return {
    registrationId: String(r.registration_id),
    name: String(r.name),
    question: String(r.question),
    plan: typeof r.plan === "string" ? r.plan : JSON.stringify(r.plan),
    planHash: String(r.plan_hash),
    kitCommit: String(r.kit_commit),
    registeredAt: date(r.registered_at),
    label: r.label as RegistrationLabel,
    powerLine: String(r.power_line),
    warnings: (json(r.warnings) as string[] | null) ?? [],
  };
}

/** The registration, or null. */
export async function readRegistration(ws: Workspace, id: string): Promise<RegistrationRow | null> {
  const [row] = await ws.query<Record<string, unknown>>("SELECT * FROM experiments WHERE registration_id = $id", {
    id,
  });
  return row ? registrationOf(row) : null;
}

/** Every registration, oldest first. */
export async function listRegistrations(ws: Workspace): Promise<RegistrationRow[]> {
  const rows = await ws.query<Record<string, unknown>>(
    "SELECT * FROM experiments ORDER BY registered_at, registration_id",
  );
  return rows.map(registrationOf);
}

/** Inserts a new run `running`. */
export async function insertExperimentRun(
  ws: Workspace,
  r: { runId: string; registrationId: string; runNumber: number; kitCommit: string; startedAt: Date },
): Promise<void> {
  await ws.append("experiment_runs", [
    {
      run_id: r.runId,
      registration_id: r.registrationId,
      run_number: r.runNumber,
      kit_commit: r.kitCommit,
      started_at: r.startedAt,
      status: "running",
      is_registered_result: false,
    },
  ]);
}

/** A run resumed: running again, its end and error cleared. */
export async function markExperimentRunRunning(ws: Workspace, runId: string): Promise<void> {
  await ws.exec("UPDATE experiment_runs SET status = 'running', finished_at = NULL, error = NULL WHERE run_id = $r", {
    r: runId,
  });
}

/** The run's summary JSON (baselines while running; everything once completed). */
export async function writeRunSummary(ws: Workspace, runId: string, summary: unknown): Promise<void> {
  await ws.exec("UPDATE experiment_runs SET summary = $s WHERE run_id = $r", {
    s: JSON.stringify(summary),
    r: runId,
  });
}

/** Ends a run: completed (with whether it is the registered result) or failed (with its error), at `at`. */
export async function endExperimentRun(
  ws: Workspace,
  runId: string,
  end: { status: "completed" | "failed"; at: Date; isRegisteredResult: boolean; error?: string },
): Promise<void> {
  // Microseconds since the epoch (a JS Date is no DuckDB parameter), as the store's run lifecycle writes them.
  // A null is no DuckDB parameter (it has no type): no error is written as the literal NULL.
  const error = end.error === undefined ? "NULL" : "$e";
  await ws.exec(
    `UPDATE experiment_runs SET status = $s, finished_at = make_timestamp($us::BIGINT), is_registered_result = $reg,
     error = ${error} WHERE run_id = $r`,
    {
      s: end.status,
      us: Math.round(end.at.getTime() * 1000),
      reg: end.isRegisteredResult,
      r: runId,
      ...(end.error === undefined ? {} : { e: end.error }),
    },
  );
}

/** The runs of a registration (or of every registration), by registration and run number. */
export async function listExperimentRuns(ws: Workspace, registrationId?: string): Promise<ExperimentRunRow[]> {
  const rows = await ws.query<Record<string, unknown>>(
    `SELECT * FROM experiment_runs ${registrationId === undefined ? "" : "WHERE registration_id = $id"}
     ORDER BY registration_id, run_number`,
    registrationId === undefined ? {} : { id: registrationId },
  );
  return rows.map((r) => ({
    runId: String(r.run_id),
    registrationId: String(r.registration_id),
    runNumber: Number(r.run_number),
    kitCommit: String(r.kit_commit),
    startedAt: date(r.started_at),
    finishedAt: r.finished_at === null || r.finished_at === undefined ? null : date(r.finished_at),
    status: r.status as RunState["status"],
    isRegisteredResult: r.is_registered_result === true,
    summary: json(r.summary),
    error: (r.error as string | null) ?? null,
  }));
}

/** Appends cells of a run (one statement for a batch). */
export async function appendResults(ws: Workspace, rows: readonly ResultRow[]): Promise<void> {
  if (!rows.length) return;
  await ws.append(
    "experiment_results",
    rows.map((r) => ({
      run_id: r.runId,
      arm: r.arm,
      task_id: r.taskId,
      draw_or_seed: r.draw,
      status: r.status,
      valid: r.valid,
      valid_score: r.validScore,
      test_score: r.testScore,
      normalisable: r.normalisable,
      normalized: r.normalized,
      medal: r.medal,
      human_rank: r.humanRank,
      valid_rate: r.validRate,
      evolve_run_id: r.evolveRunId,
      sandbox_s: r.sandboxS,
    })),
  );
}

function resultOf(r: Record<string, unknown>): ResultRow {
  return {
    runId: String(r.run_id),
    arm: String(r.arm),
    taskId: String(r.task_id),
    draw: Number(r.draw_or_seed),
    status: String(r.status),
    valid: r.valid === true,
    validScore: num(r.valid_score),
    testScore: num(r.test_score),
    normalisable: r.normalisable === true,
    normalized: num(r.normalized),
    medal: (r.medal as Medal | null) ?? null,
    humanRank: num(r.human_rank),
    validRate: num(r.valid_rate),
    evolveRunId: (r.evolve_run_id as string | null) ?? null,
    sandboxS: num(r.sandbox_s),
  };
}

/** The cells a run stored, by arm, task and draw. */
export async function readResults(ws: Workspace, runId: string): Promise<ResultRow[]> {
  const rows = await ws.query<Record<string, unknown>>(
    "SELECT * FROM experiment_results WHERE run_id = $r ORDER BY arm, task_id, draw_or_seed",
    { r: runId },
  );
  return rows.map(resultOf);
}

/** Appends one look (experiment_looks). */
export async function appendLook(ws: Workspace, l: Look): Promise<void> {
  await ws.append("experiment_looks", [
    { registration_id: l.registrationId, looked_at: l.at, command: l.command, what: l.what },
  ]);
}

/** The looks of a registration (or of all), oldest first. */
export async function readLooks(ws: Workspace, registrationId?: string): Promise<Look[]> {
  const rows = await ws.query<Record<string, unknown>>(
    `SELECT * FROM experiment_looks ${registrationId === undefined ? "" : "WHERE registration_id = $id"}
     ORDER BY looked_at`,
    registrationId === undefined ? {} : { id: registrationId },
  );
  return rows.map((r) => ({
    registrationId: String(r.registration_id),
    at: date(r.looked_at),
    command: String(r.command),
    what: String(r.what),
  }));
}

/** A stored row of some row set on a dev task: an experiment cell, or a loop's held-out draft or seed. */
export interface DevRow {
  /** `experiment:<run>:<arm>` or `loop:<row set>:g<generation>`. */
  readonly source: string;
  /** experiment cells: the arm (mapped to its policy by the caller); loop rows: the checkpoint name. */
  readonly armOrCheckpoint: string;
  /** experiment cells: the run's registration id; loop rows: null. */
  readonly registrationId: string | null;
  readonly taskId: string;
  readonly draw: number;
  readonly valid: boolean;
  readonly testScore: number | null;
  /** experiment cells: stored; loop rows: null (the caller infers it from `normalized`). */
  readonly normalisable: boolean | null;
  readonly normalized: number | null;
}

/**
 * Every stored row on `taskIds` of one level: experiment cells of runs whose plan is at that level, and the loop's
 * held-out rows (drafts: loop_heldout_drafts; search: loop_heldout, each seed's champion). A read model of erl's
 * tables, like kit/eval's of evo's: the power line pools every row set that measured a dev task.
 */
export async function devRows(
  ws: Workspace,
  taskIds: readonly string[],
  level: "drafts" | "search",
): Promise<DevRow[]> {
  if (!taskIds.length) return [];
  const exp = await ws.query<Record<string, unknown>>(
    `SELECT r.run_id, r.arm, x.registration_id, r.task_id, r.draw_or_seed, r.valid, r.test_score, r.normalisable,
            r.normalized
     FROM experiment_results r JOIN experiment_runs x USING (run_id) JOIN experiments e USING (registration_id)
     WHERE r.task_id IN (SELECT unnest(from_json($t, '["VARCHAR"]')))
       AND json_extract_string(e.plan, '$.level.kind') = $level`,
    { t: JSON.stringify(taskIds), level },
  );
  const loop = await ws.query<Record<string, unknown>>(
    level === "drafts"
      ? `SELECT loop_id, generation, checkpoint, task_id, draft AS draw, test_score, normalized
         FROM loop_heldout_drafts WHERE task_id IN (SELECT unnest(from_json($t, '["VARCHAR"]')))`
      : `SELECT loop_id, generation, checkpoint, task_id, seed AS draw, test_score, normalized
         FROM loop_heldout WHERE task_id IN (SELECT unnest(from_json($t, '["VARCHAR"]')))`,
    { t: JSON.stringify(taskIds) },
  );
  return [
    ...exp.map((r) => ({
      source: `experiment:${String(r.run_id)}:${String(r.arm)}`,
      armOrCheckpoint: String(r.arm),
      registrationId: String(r.registration_id),
      taskId: String(r.task_id),
      draw: Number(r.draw_or_seed),
      valid: r.valid === true,
      testScore: num(r.test_score),
      normalisable: r.normalisable === true,
      normalized: num(r.normalized),
    })),
    ...loop.map((r) => ({
      source: `loop:${String(r.loop_id)}:g${Number(r.generation)}`,
      armOrCheckpoint: String(r.checkpoint),
      registrationId: null,
      taskId: String(r.task_id),
      draw: Number(r.draw),
      valid: r.test_score !== null && r.test_score !== undefined,
      testScore: num(r.test_score),
      normalisable: null,
      normalized: num(r.normalized),
    })),
  ];
}
