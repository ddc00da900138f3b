import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Table } from "apache-arrow";
import type { ChatMessage } from "../../llm/spec.js";
import type { GrammarChoice } from "../../policy/grammar/index.js";
import type { Operator } from "../../policy/types.js";
import { exportParquet, toArrow, toDanfo, type Workspace } from "../../store/index.js";
import { ErlError } from "../errors.js";
import type { SftExample } from "./sft-example.js";

/** What a dataset records about how it was made (every row's meta carries it). */
export interface DatasetInfo {
  readonly config: unknown;
  readonly configHash: string;
  /** "llm:<model>" or "skipped". */
  readonly judge: string;
  /** Parallel path: attempts, kept and stop reason per task. */
  readonly parallel?: readonly unknown[];
}

export class DatasetExistsError extends ErlError {}
export class DatasetNotFoundError extends ErlError {}

/** Names of the datasets in a workspace, with their example counts. */
export async function listDatasets(ws: Workspace): Promise<{ dataset: string; kind: string; examples: number }[]> {
  return ws.query(
    "SELECT dataset, any_value(kind) AS kind, count(*)::INTEGER AS examples FROM datasets GROUP BY " +
      "dataset ORDER BY dataset",
  );
}

/**
 * Operator and path of each example of a dataset: all its composition needs, so a recorded copy without messages
 * and programs is enough (notebook 06's recordings). Empty when the workspace has no such dataset.
 */
export async function datasetPaths(
  ws: Workspace,
  name: string,
): Promise<{ operator: Operator; path: SftExample["path"] }[]> {
  return ws.query("SELECT operator, meta->>'path' AS path FROM datasets WHERE dataset = $name ORDER BY example_id", {
    name,
  });
}

export async function datasetExists(ws: Workspace, name: string): Promise<boolean> {
  return (await ws.query("SELECT 1 FROM datasets WHERE dataset = $name LIMIT 1", { name })).length > 0;
}

/**
 * How a dataset was made (saveDataset's info, carried by every row's meta); null when there is no such dataset.
 * Lets an analysis replay the collection, e.g. the parallel path's attempts from its seed and per-task counts.
 */
export async function datasetInfo(ws: Workspace, name: string): Promise<DatasetInfo | null> {
  const [row] = await ws.query<{ meta: string }>("SELECT meta FROM datasets WHERE dataset = $name LIMIT 1", { name });
  if (!row) return null;
  const m = JSON.parse(row.meta) as Record<string, unknown>;
  const parallel = (m.parallel as unknown[] | undefined) ?? [];
  return { config: m.config, configHash: String(m.config_hash), judge: String(m.judge), parallel };
}

/** Refuse an existing name unless replace (checked before any work is done). */
export async function assertDatasetFree(ws: Workspace, name: string, replace: boolean): Promise<void> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(name))
    throw new ErlError(`dataset name "${name}" is not allowed: use letters, digits, . _ : -`);
  if (!replace && (await datasetExists(ws, name))) {
    throw new DatasetExistsError(
      `dataset "${name}" already exists in ${ws.dir}: pick another --dataset name or pass --replace`,
    );
  }
}

/** Store a dataset's examples in one transaction (a replace deletes the old rows in the same transaction). */
export async function saveDataset(
  ws: Workspace,
  name: string,
  examples: readonly SftExample[],
  info: DatasetInfo,
  opts: { replace?: boolean } = {},
): Promise<number> {
  await assertDatasetFree(ws, name, !!opts.replace);
  const rows = examples.map((e, i) => ({
    example_id: `${name}/${String(i).padStart(5, "0")}`,
    dataset: name,
    kind: "sft",
    task_id: e.taskId,
    operator: e.operator,
    messages: JSON.stringify(e.messages),
    program: e.program,
    score: e.score,
    weight: 1,
    source_run: e.sourceRun,
    meta: JSON.stringify({
      path: e.path,
      teacher: e.teacher,
      source_node: e.sourceNode,
      tokens: e.tokens ?? null,
      judge: info.judge,
      judge_reason: e.judgeReason,
      config_hash: info.configHash,
      config: info.config,
      parallel: info.parallel ?? [],
      choices: e.choices,
    }),
  }));
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM datasets WHERE dataset = $name", { name });
    await ws.append("datasets", rows);
  });
  return rows.length;
}

interface DatasetRow {
  example_id: string;
  task_id: string;
  operator: Operator;
  messages: string;
  program: string;
  score: number | null;
  source_run: string | null;
  meta: string;
}

/** A stored example with its id and meta. */
export interface StoredExample extends SftExample {
  readonly exampleId: string;
  readonly judge: string;
  readonly configHash: string;
}

/** Read a dataset back (DatasetNotFoundError lists the names there are). */
export async function loadDataset(ws: Workspace, name: string): Promise<StoredExample[]> {
  const rows = await ws.query<DatasetRow>("SELECT * FROM datasets WHERE dataset = $name ORDER BY example_id", { name });
  if (rows.length === 0) {
    const names = (await listDatasets(ws)).map((d) => d.dataset);
    throw new DatasetNotFoundError(
      `no dataset "${name}" in ${ws.dir}; ` +
        (names.length ? `it has: ${names.join(", ")}` : "it has none yet (make one with openmle sft collect)"),
    );
  }
  return rows.map((r) => {
    const m = JSON.parse(r.meta) as Record<string, unknown>;
    return {
      exampleId: r.example_id,
      taskId: r.task_id,
      operator: r.operator,
      path: m.path as SftExample["path"],
      teacher: String(m.teacher),
      score: r.score,
      sourceRun: r.source_run,
      sourceNode: (m.source_node as string | null) ?? null,
      messages: JSON.parse(r.messages) as ChatMessage[],
      program: r.program,
      choices: (m.choices as GrammarChoice[] | null) ?? null,
      judgeReason: (m.judge_reason as string | null) ?? null,
      tokens: (m.tokens as number | undefined) ?? undefined,
      judge: String(m.judge),
      configHash: String(m.config_hash),
    };
  });
}

/** The flat query behind Arrow, danfojs and Parquet: one row per example, every metadata field a column. */
export function datasetSql(name: string): string {
  const q = `'${name.replaceAll("'", "''")}'`;
  return (
    `SELECT example_id, dataset, task_id, operator, meta->>'path' AS path, meta->>'teacher' AS ` +
    `teacher, score, source_run,
    meta->>'source_node' AS source_node, (meta->>'tokens')::INTEGER AS tokens, meta->>'judge' AS judge, meta->>'judge_reason' AS judge_reason,
    meta->>'config_hash' AS config_hash, messages, program, created_at
    FROM datasets WHERE dataset = ${q} ORDER BY example_id`
  );
}

/** A dataset as an apache-arrow Table (notebooks). */
export async function datasetArrow(ws: Workspace, name: string): Promise<Table> {
  await loadDataset(ws, name); // the not-found error
  return toArrow(ws, datasetSql(name));
}

/** A dataset as a danfojs DataFrame (notebooks). */
export async function datasetDanfo(ws: Workspace, name: string) {
  await loadDataset(ws, name);
  return toDanfo(ws, datasetSql(name));
}

/**
 * Export a dataset: `.jsonl` → one `{"messages": [...]}` per line (what common SFT trainers read);
 * `.parquet` → every metadata column (datasetSql) via DuckDB.
 */
export async function exportDataset(
  ws: Workspace,
  name: string,
  file: string,
): Promise<{ file: string; examples: number }> {
  const examples = await loadDataset(ws, name);
  const out = resolve(file);
  if (out.endsWith(".jsonl")) {
    writeFileSync(out, examples.map((e) => JSON.stringify({ messages: e.messages })).join("\n") + "\n");
  } else if (out.endsWith(".parquet")) {
    await exportParquet(ws, datasetSql(name), out);
  } else {
    throw new ErlError(`--out ${file}: the file must end in .jsonl (chat messages) or .parquet (all columns)`);
  }
  return { file: out, examples: examples.length };
}
