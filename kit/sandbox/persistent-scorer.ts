import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import {
  MetricLoadError,
  metricOptions,
  packagePaths,
  PythonError,
  pythonHelper,
  type ScoreResult,
  type TaskPackage,
} from "../gym/index.js";
import { sandboxHostUser, sandboxPython } from "../jail/index.js";
import { DEFAULT_SCORER_LIMITS, type ScorerLimits } from "./sandboxed-scorer.js";
import { SCORE_DIR, ScorerWorker, type ScorerFiles, type ScorerOutcome } from "./scorer-worker.js";

/** Why a scoring sandbox was stopped. */
export type ScorerStopReason =
  "timeout" | "memory" | "crash" | "error" | "dirty" | "load" | "changed" | "evicted" | "closed";

/** Lifecycle of the persistent scorer's sandboxes (one per task folder). */
export type ScorerEvent =
  | {
      readonly type: "scorer-start";
      readonly taskId: string;
      readonly dir: string;
      readonly reason: "first" | "restart" | "changed";
    }
  | { readonly type: "scorer-stop"; readonly taskId: string; readonly dir: string; readonly reason: ScorerStopReason };

export interface PersistentScorerOptions {
  /** Per submission: wall-clock limit (also for loading the metric) and the sandbox's memory cap. */
  readonly limits?: Partial<ScorerLimits>;
  readonly bwrap?: string;
  /** Scoring sandboxes kept at once (default 4); the least recently used idle one goes first. */
  readonly maxWorkers?: number;
  readonly onEvent?: (e: ScorerEvent) => void;
}

/** A scorer with long-lived sandboxes: call it like any scorer; `close()` stops them all. */
export interface PersistentScorer {
  (task: TaskPackage, submissionCsv: string): Promise<ScoreResult>;
  close(): Promise<void>;
}

interface Entry {
  readonly dir: string;
  readonly taskId: string;
  key: string;
  worker: ScorerWorker | null;
  started: boolean;
  changed: boolean;
  chain: Promise<unknown>;
  pending: number;
  lastUsed: number;
}

const live = new Set<ScorerWorker>();
let exitHook = false;

/**
 * The default hidden-test scorer: one long-lived scoring sandbox per task folder (ScorerWorker:
 * the per-node scorer's sandbox, running metric_harness.py `serve`), which has imported pandas and
 * the task's metric.py once and scores each submission in a fresh fork of that state, so results
 * are those of `sandboxedScorer` at a fraction of the cost. The metric, the answers and the harness
 * are read by the kit (links not followed) and copied in as bytes; their content hash, with the
 * interpreter, the metric's options and the limits, names the sandbox: any change starts a new one.
 * The sandbox is also restarted after a timeout, the memory cap, a crash, a metric error or a
 * failed clean-up. Submissions are sent as bytes over a pipe; nothing is shared with jobs.
 */
export function persistentScorer(opts: PersistentScorerOptions = {}): PersistentScorer {
  const limits = { ...DEFAULT_SCORER_LIMITS, ...opts.limits };
  const bwrap = opts.bwrap ?? "bwrap";
  const maxWorkers = opts.maxWorkers ?? 4;
  const user = sandboxHostUser();
  const entries = new Map<string, Entry>();
  const emit = (e: ScorerEvent) => opts.onEvent?.(e);
  if (!exitHook) {
    exitHook = true;
    process.once("exit", () => {
      for (const w of live) w.killNow();
    });
  }

  const stop = async (entry: Entry, reason: ScorerStopReason) => {
    const w = entry.worker;
    if (!w) return;
    entry.worker = null;
    live.delete(w);
    await w.stop();
    emit({ type: "scorer-stop", taskId: entry.taskId, dir: entry.dir, reason });
  };

  const evict = (except: Entry) => {
    while (entries.size > maxWorkers) {
      const idle = [...entries.values()]
        .filter((e) => e !== except && e.pending === 0)
        .sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!idle) return;
      entries.delete(idle.dir);
      idle.chain = idle.chain.then(() => stop(idle, "evicted"));
    }
  };

  /** 1. (re)start the task's sandbox when needed; 2. send the submission; 3. map the outcome, stopping the sandbox
   * unless it may serve again. */
  const scoreIn = async (
    entry: Entry,
    task: TaskPackage,
    files: ScorerFiles,
    key: string,
    submission: Buffer,
  ): Promise<ScoreResult> => {
    const metricPath = packagePaths(task.dir).metric;
    if (entry.worker && (entry.key !== key || !entry.worker.alive)) {
      const changed = entry.key !== key;
      await stop(entry, changed ? "changed" : "crash");
      entry.changed = changed;
    }
    entry.key = key;
    if (!entry.worker) {
      const python = sandboxPython();
      const w = new ScorerWorker({
        files,
        options: metricOptions(task),
        python,
        memoryMb: limits.memoryMb,
        bwrap,
        user,
      });
      live.add(w);
      entry.worker = w;
      emit({
        type: "scorer-start",
        taskId: entry.taskId,
        dir: entry.dir,
        reason: entry.changed ? "changed" : entry.started ? "restart" : "first",
      });
      entry.started = true;
      entry.changed = false;
      const o = await w.ready(limits.timeoutS);
      if (o.type !== "reply" || !o.reply.ready) return finish(entry, o, metricPath);
    }
    return finish(entry, await entry.worker.score(submission, limits.timeoutS), metricPath);
  };

  const finish = async (entry: Entry, o: ScorerOutcome, metricPath: string): Promise<ScoreResult> => {
    const tail = entry.worker?.stderrTail() ?? "";
    if (o.type === "timeout") {
      await stop(entry, "timeout");
      return {
        ok: false,
        kind: "error",
        message: `the task's metric ran past the scorer's ${limits.timeoutS} s limit and was killed`,
      };
    }
    if (o.type === "memory") {
      await stop(entry, "memory");
      return {
        ok: false,
        kind: "error",
        message: `the task's metric used more than the scorer's ${limits.memoryMb} MiB memory cap and was killed`,
      };
    }
    if (o.type === "died" || o.reply.kind === "crash") {
      await stop(entry, "crash");
      const how = o.type === "died" ? o.detail : (o.reply.message ?? "no result");
      throw new PythonError(`the scoring sandbox produced no result (${how}): ${tail || "no output"}`, metricPath);
    }
    const r = o.reply;
    if (r.kind === "load") {
      await stop(entry, "load");
      throw new MetricLoadError(
        (r.message ?? "cannot load the metric").replaceAll(`${SCORE_DIR}/metric.py`, metricPath),
        metricPath,
      );
    }
    if (r.dirty) await stop(entry, "dirty");
    if (r.ok && typeof r.score === "number") return { ok: true, score: r.score };
    if (r.kind === "invalid") return { ok: false, kind: "invalid", message: r.message ?? "invalid submission" };
    await stop(entry, "error");
    return { ok: false, kind: "error", message: r.message ?? "metric error" };
  };

  const scorer = async (task: TaskPackage, submissionCsv: string): Promise<ScoreResult> => {
    const p = packagePaths(task.dir);
    const files: ScorerFiles = {
      harness: readNoFollow(pythonHelper("metric_harness.py"), "the metric harness"),
      serve: readNoFollow(pythonHelper("scorer_serve.py"), "the scorer's server"),
      metric: readNoFollow(p.metric, "the task's metric"),
      answers: readNoFollow(p.answers, "the task's answers"),
    };
    let submission: Buffer;
    try {
      submission = readNoFollow(submissionCsv, "the submission");
    } catch (e) {
      return { ok: false, kind: "invalid", message: (e as Error).message };
    }
    const h = createHash("sha256");
    h.update(JSON.stringify([sandboxPython(), metricOptions(task), limits]));
    for (const b of [files.harness, files.serve, files.metric, files.answers]) h.update(`\0${b.length}\0`).update(b);
    const key = h.digest("hex");
    let entry = entries.get(task.dir);
    if (!entry) {
      entry = {
        dir: task.dir,
        taskId: task.meta.id,
        key,
        worker: null,
        started: false,
        changed: false,
        chain: Promise.resolve(),
        pending: 0,
        lastUsed: 0,
      };
      entries.set(task.dir, entry);
      evict(entry);
    }
    const e = entry;
    e.pending++;
    e.lastUsed = performance.now();
    const run = e.chain.then(() => scoreIn(e, task, files, key, submission));
    e.chain = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      e.pending--;
      e.lastUsed = performance.now();
    }
  };

  return Object.assign(scorer, {
    close: async () => {
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.map((e) => (e.chain = e.chain.then(() => stop(e, "closed")))));
    },
  });
}

/** A file's bytes, opened without following links; a MetricLoadError saying which file otherwise. */
function readNoFollow(path: string, what: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    throw new MetricLoadError(`cannot open ${what} ${path}: ${(e as Error).message}`, path);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new MetricLoadError(`${what} ${path} is not a regular file`, path);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
