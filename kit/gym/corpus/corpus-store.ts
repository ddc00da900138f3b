// The corpus's two tables (corpus_stages, corpus_tasks: kit/store/columns/gym-corpus-tables.ts), written and read
// here only. Rows go in and come out as the shared records of types.ts (camelCase), never as raw rows.
import type { Workspace } from "../../store/index.js";
import type { Modality, TaskType } from "../types.js";
import type { SuiteName } from "./suites.js";
import type { CorpusTask, FunnelStage, SourceKind, StageRecord } from "./types.js";

/**
 * The corpus suite a task was assigned (assignSuites): train, dev or confirm (sealed); the built-in tasks are the
 * separate core suite. Rows of builds before issue 60 hold "heldout" (what dev and confirm were carved from).
 */
export type Suite = SuiteName;
/** An accepted task with the suite the rules gave it. */
export type SuitedTask = CorpusTask & { readonly suite: Suite };

/** One corpus build as the workspace holds it. */
export interface CorpusBuild {
  readonly buildId: string;
  /** When its first and last rows were recorded. */
  readonly firstAt: Date;
  readonly lastAt: Date;
  readonly candidates: number;
  readonly records: number;
  readonly tasks: number;
}

/** What `openmle task funnel` reads: one build's stage records and accepted tasks (null: no build stored). */
export interface StoredFunnel {
  readonly buildId: string;
  readonly records: StageRecord[];
  readonly tasks: SuitedTask[];
}

/** Append stage records (none: nothing is written). A build records each stage of a candidate or task once. */
export async function recordStages(
  ws: Workspace,
  records: readonly StageRecord[],
  now: () => Date = () => new Date(),
): Promise<void> {
  if (!records.length) return;
  const at = now();
  await ws.append(
    "corpus_stages",
    records.map((r) => ({
      build_id: r.buildId,
      candidate: r.candidate,
      task_id: r.taskId ?? null,
      stage: r.stage,
      status: r.status,
      reason: r.reason,
      ms: r.ms,
      recorded_at: at,
    })),
  );
}

/** Store a build's accepted tasks in place of any stored for that build (one transaction). */
export async function recordCorpusTasks(
  ws: Workspace,
  buildId: string,
  tasks: readonly SuitedTask[],
  now: () => Date = () => new Date(),
): Promise<void> {
  const at = now();
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM corpus_tasks WHERE build_id = $b", { b: buildId });
    if (tasks.length)
      await ws.append(
        "corpus_tasks",
        tasks.map((t) => ({
          build_id: buildId,
          id: t.id,
          candidate: t.candidate,
          study: t.study,
          source: t.source,
          package: t.package,
          modality: t.modality,
          task_type: t.taskType,
          metric: t.metric,
          n_rows: t.nRows,
          package_bytes: t.packageBytes,
          package_hash: t.packageHash,
          headroom_constant: t.headroom.constant,
          headroom_reference: t.headroom.reference,
          headroom_model: t.headroom.referenceModel,
          headroom_normalised: t.headroom.normalised,
          synthesised: t.synthesised,
          suite: t.suite,
          recorded_at: at,
        })),
      );
  });
}

/** The builds the workspace holds, newest (by last recorded row) first. */
export async function listCorpusBuilds(ws: Workspace): Promise<CorpusBuild[]> {
  const rows = await ws.query<{
    build_id: string;
    first_at: Date;
    last_at: Date;
    candidates: number | bigint;
    records: number | bigint;
    tasks: number | bigint;
  }>(
    `WITH b AS (
       SELECT build_id, recorded_at FROM corpus_stages UNION ALL SELECT build_id, recorded_at FROM corpus_tasks
     )
     SELECT b.build_id, min(b.recorded_at) AS first_at, max(b.recorded_at) AS last_at,
       (SELECT count(DISTINCT candidate) FROM corpus_stages s WHERE s.build_id = b.build_id) AS candidates,
       (SELECT count(*) FROM corpus_stages s WHERE s.build_id = b.build_id) AS records,
       (SELECT count(*) FROM corpus_tasks t WHERE t.build_id = b.build_id) AS tasks
     FROM b GROUP BY b.build_id ORDER BY last_at DESC, b.build_id DESC`,
  );
  return rows.map((r) => ({
    buildId: r.build_id,
    firstAt: r.first_at,
    lastAt: r.last_at,
    candidates: Number(r.candidates),
    records: Number(r.records),
    tasks: Number(r.tasks),
  }));
}

interface StageRow {
  build_id: string;
  candidate: string;
  task_id: string | null;
  stage: FunnelStage;
  status: StageRecord["status"];
  reason: string | null;
  ms: number | null;
}

interface TaskRow {
  id: string;
  candidate: string;
  study: string;
  source: SourceKind;
  package: string;
  modality: Modality;
  task_type: TaskType;
  metric: string;
  n_rows: number | bigint;
  package_bytes: number | bigint;
  package_hash: string;
  headroom_constant: number;
  headroom_reference: number;
  headroom_model: string;
  headroom_normalised: number;
  synthesised: boolean;
  suite: Suite;
}

/**
 * One build's records and tasks: `buildId`, or the newest build (listCorpusBuilds' first); null when the
 * workspace holds no build (or not that one). Records come in recording order, tasks by id.
 */
export async function loadFunnel(ws: Workspace, buildId?: string): Promise<StoredFunnel | null> {
  const id = buildId ?? (await listCorpusBuilds(ws))[0]?.buildId;
  if (id === undefined) return null;
  const stages = await ws.query<StageRow>(
    `SELECT build_id, candidate, task_id, stage, status, reason, ms FROM corpus_stages WHERE build_id = $b
     ORDER BY recorded_at, rowid`,
    { b: id },
  );
  const tasks = await ws.query<TaskRow>(
    `SELECT id, candidate, study, source, package, modality, task_type, metric, n_rows, package_bytes, package_hash,
       headroom_constant, headroom_reference, headroom_model, headroom_normalised, synthesised, suite
     FROM corpus_tasks WHERE build_id = $b ORDER BY id`,
    { b: id },
  );
  if (!stages.length && !tasks.length) return null;
  return {
    buildId: id,
    records: stages.map((r) => ({
      buildId: r.build_id,
      candidate: r.candidate,
      ...(r.task_id !== null ? { taskId: r.task_id } : {}),
      stage: r.stage,
      status: r.status,
      reason: r.reason ?? "",
      ms: r.ms ?? 0,
    })),
    tasks: tasks.map((t) => ({
      id: t.id,
      candidate: t.candidate,
      study: t.study,
      source: t.source,
      package: t.package,
      modality: t.modality,
      taskType: t.task_type,
      metric: t.metric,
      nRows: Number(t.n_rows),
      packageBytes: Number(t.package_bytes),
      packageHash: t.package_hash,
      headroom: {
        constant: t.headroom_constant,
        reference: t.headroom_reference,
        referenceModel: t.headroom_model,
        normalised: t.headroom_normalised,
      },
      synthesised: t.synthesised,
      suite: t.suite,
    })),
  };
}
