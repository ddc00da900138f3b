import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import type { EvoEvent } from "../evo/index.js";

/**
 * The live journal: how a second process (a notebook, `openmle serve`) follows a workspace while
 * `evolve` writes it. DuckDB lets one process hold the database file for writing and refuses every
 * other open, so the writer also appends one JSON line per event to `<workspace>/journal/<run>.jsonl`
 * (one `appendFileSync` per line, O_APPEND). Readers only read those files: they take no lock, never
 * open the database, and keep complete lines only (a line still being written is read next time), so
 * they can neither block nor corrupt the writer. The database stays the record; the journal is a view.
 */
export interface JournalNode {
  readonly type: "node";
  readonly runId: string;
  readonly step: number;
  readonly nodeId: string;
  readonly operator: string;
  readonly parents: readonly string[];
  readonly status: string;
  readonly validScore: number | null;
  readonly testScore: number | null;
  readonly methodFamily: string;
  readonly plan: string;
  readonly code: string;
  readonly stdoutTail: string;
  readonly traceback: string | null;
  readonly done: number;
  readonly total: number;
  /** Best validation score so far (the run's direction). */
  readonly best: number | null;
  readonly at: string;
}
export type JournalRecord =
  | {
      readonly type: "run-start";
      readonly runId: string;
      readonly taskId: string;
      readonly harness: string;
      readonly higherIsBetter: boolean;
      readonly steps: number;
      readonly resumed: boolean;
      readonly at: string;
    }
  | JournalNode
  | {
      readonly type: "run-end";
      readonly runId: string;
      readonly nodes: number;
      readonly best: number | null;
      readonly at: string;
    };

export const journalDir = (workspaceDir: string) => join(workspaceDir, "journal");

/** An `evolve` onEvent handler that appends the run's events to its journal file. */
export function journalWriter(
  workspaceDir: string,
  run: { taskId: string; harness: string; higherIsBetter: boolean },
): (e: EvoEvent) => void {
  const dir = journalDir(workspaceDir);
  mkdirSync(dir, { recursive: true });
  let runId = "";
  const put = (r: JournalRecord) =>
    appendFileSync(join(dir, `${r.runId.replace(/[^A-Za-z0-9_.-]/g, "_")}.jsonl`), `${JSON.stringify(r)}\n`);
  const at = () => new Date().toISOString();
  return (e) => {
    if (e.type === "run-start")
      put({ type: "run-start", runId: (runId = e.runId), ...run, steps: e.steps, resumed: e.resumed, at: at() });
    else if (e.type === "node") {
      const n = e.node;
      put({
        type: "node",
        runId,
        step: n.step,
        nodeId: n.nodeId,
        operator: n.operator,
        parents: n.parents,
        status: n.status,
        validScore: n.validScore,
        testScore: n.testScore,
        methodFamily: n.methodFamily,
        plan: n.plan,
        code: n.code,
        stdoutTail: n.stdoutTail,
        traceback: n.traceback,
        done: e.done,
        total: e.total,
        best: e.best,
        at: at(),
      });
    } else if (e.type === "run-end")
      put({
        type: "run-end",
        runId: e.summary.runId,
        nodes: e.summary.nodes,
        best: e.summary.champion?.validScore ?? null,
        at: at(),
      });
  };
}

/** One run as the journal tells it. */
export interface LiveRun {
  readonly runId: string;
  readonly taskId: string;
  readonly harness: string;
  readonly higherIsBetter: boolean;
  readonly steps: number;
  readonly finished: boolean;
  /** The first run-start's time (ISO), as runs.started_at; null when the journal has none. */
  readonly startedAt: string | null;
  /** The last run-end's time (ISO) unless a run-start (a resume) came after it, as runs.ended_at. */
  readonly endedAt: string | null;
  readonly nodes: readonly JournalNode[];
}

/**
 * A reader that tails a workspace's journal files: each `read()` reads only the bytes appended since the
 * last call (complete lines), and returns every run so far. Never opens the database.
 */
export function journalReader(workspaceDir: string): { read: () => LiveRun[] } {
  const offsets = new Map<string, number>();
  const runs = new Map<
    string,
    {
      start?: Extract<JournalRecord, { type: "run-start" }>;
      startedAt: string | null;
      endedAt: string | null;
      nodes: JournalNode[];
      finished: boolean;
    }
  >();
  const take = (r: JournalRecord) => {
    const run = runs.get(r.runId) ?? { nodes: [], finished: false, startedAt: null, endedAt: null };
    runs.set(r.runId, run);
    if (r.type === "run-start") {
      run.start = r;
      run.finished = false;
      run.startedAt ??= r.at;
      run.endedAt = null;
    } else if (r.type === "node") run.nodes.push(r);
    else ((run.finished = true), (run.endedAt = r.at));
  };
  return {
    read() {
      const dir = journalDir(workspaceDir);
      if (existsSync(dir)) {
        for (const f of readdirSync(dir)
          .filter((f) => f.endsWith(".jsonl"))
          .sort()) {
          const fd = openSync(join(dir, f), "r");
          try {
            const size = fstatSync(fd).size;
            const from = offsets.get(f) ?? 0;
            if (size <= from) continue;
            const buf = Buffer.alloc(size - from);
            readSync(fd, buf, 0, buf.length, from);
            const end = buf.lastIndexOf(0x0a); // complete lines only: a line being written is read next time
            if (end < 0) continue;
            offsets.set(f, from + end + 1);
            for (const l of buf.subarray(0, end).toString("utf8").split("\n"))
              if (l.trim()) take(JSON.parse(l) as JournalRecord);
          } finally {
            closeSync(fd);
          }
        }
      }
      return [...runs].map(([runId, r]) => ({
        runId,
        taskId: r.start?.taskId ?? "unknown",
        harness: r.start?.harness ?? "unknown",
        higherIsBetter: r.start?.higherIsBetter ?? true,
        steps: r.start?.steps ?? r.nodes.length,
        finished: r.finished,
        startedAt: r.startedAt,
        endedAt: r.endedAt,
        nodes: r.nodes,
      }));
    },
  };
}
