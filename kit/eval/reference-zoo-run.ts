import { existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { metricRange, scoreSubmission, type ScoreResult, type TaskPackage } from "../gym/index.js";
import {
  checkSubmission,
  persistentScorer,
  probeBwrap,
  runSandbox,
  submissionCaps,
  SandboxUnavailableError,
  type ExecutionRecord,
  type Executor,
  type SandboxLimits,
  type Scorer,
} from "../sandbox/index.js";
import { ZOO_ENTRIES, zooProgram, type ReferenceZooConfigInput } from "./reference-zoo.js";

/**
 * What became of one zoo entry on one task:
 * ok = its submission was scored by the task's hidden metric (`score`);
 * skipped = not run (no model for the task type, no features, or a size rule: `message` says which);
 * error / timeout = the fit failed or passed the entry cap inside the program;
 * invalid = the metric refused its submission, or the score lies outside the metric's range;
 * missing = the program ended (crashed, or passed the program's limit) before the entry's turn.
 * Every status but ok leaves the entry off the leaderboard.
 */
export type ZooEntryStatus = "ok" | "skipped" | "error" | "timeout" | "invalid" | "missing";

export interface ZooEntryResult {
  readonly name: string;
  readonly status: ZooEntryStatus;
  /** The hidden-test score (ok only). */
  readonly score: number | null;
  readonly message: string | null;
  /** Seconds of the entry's fit and prediction inside the program (0 when it did not run). */
  readonly seconds: number;
}

export interface ZooRun {
  readonly taskId: string;
  /** One result per zoo entry, in ZOO_ENTRIES order. */
  readonly entries: readonly ZooEntryResult[];
  /** The program's execution record (its submission.csv is the first entry that succeeded). */
  readonly record: ExecutionRecord;
  /** Wall seconds of the whole run: program and scoring. */
  readonly seconds: number;
}

export interface RunZooOptions {
  readonly config?: ReferenceZooConfigInput;
  /** The program's limits (default: 1800 s, 4096 MiB, one CPU thread). */
  readonly limits?: Partial<SandboxLimits>;
  readonly executor?: Executor;
  /** Hidden-test scorer (default: a persistent sandboxed scorer of this run's own, closed at its end). */
  readonly scorer?: Scorer;
  readonly signal?: AbortSignal;
}

const StatusFile = z.object({
  version: z.number(),
  entries: z.array(
    z.object({
      name: z.string(),
      status: z.enum(["ok", "skipped", "error", "timeout"]),
      message: z.string().nullable().optional(),
      seconds: z.number(),
    }),
  ),
});

/** Default limits of the zoo program: every entry runs in one process on one thread. */
export const ZOO_LIMITS: Partial<SandboxLimits> = { timeoutS: 1800, memoryMb: 4096, cpus: 1 };

/** A regular file (not a link) whose real path lies inside `dir`. */
function fileInside(dir: string, path: string): boolean {
  try {
    return lstatSync(path).isFile() && realpathSync(path).startsWith(`${realpathSync(dir)}/`);
  } catch {
    return false;
  }
}

/**
 * Run the whole zoo on one task and score each entry's submission with the task's hidden metric:
 * 1. the zoo's one program (zooProgram) runs in the sandbox like any candidate, its job folder kept;
 * 2. zoo_status.json says which entries succeeded; each one's submissions/<entry>.csv, a regular file inside the
 *    job folder within the task's submission caps, goes to the scorer (the same sandboxed scorer as candidates);
 * 3. a score that is not finite or lies outside the metric's range makes the entry invalid;
 * 4. the job folder is removed.
 */
export async function runReferenceZoo(task: TaskPackage, opts: RunZooOptions = {}): Promise<ZooRun> {
  const t0 = performance.now();
  let own: ReturnType<typeof persistentScorer> | undefined;
  // As runSandbox: the host scorer only where programs themselves run without isolation.
  const unsafe = opts.executor?.name === "local-unsafe";
  if (!opts.scorer && !unsafe) {
    const why = probeBwrap();
    if (why) throw new SandboxUnavailableError(`the reference zoo is scored in the bubblewrap sandbox: ${why}`);
  }
  const scorer = opts.scorer ?? (unsafe ? scoreSubmission : (own = persistentScorer()));
  const jobs = mkdtempSync(join(tmpdir(), "openmle-zoo-"));
  try {
    const record = await runSandbox({
      task,
      code: zooProgram(task, opts.config),
      limits: { ...ZOO_LIMITS, ...opts.limits },
      jobsDir: jobs,
      scorer,
      ...(opts.executor ? { executor: opts.executor } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const dir = record.workDir ?? jobs;
    const statusFile = join(dir, "zoo_status.json");
    let ran: z.infer<typeof StatusFile>["entries"] = [];
    if (fileInside(dir, statusFile)) {
      const parsed = StatusFile.safeParse(JSON.parse(readFileSync(statusFile, "utf8")));
      if (parsed.success) ran = parsed.data.entries;
    }
    const caps = submissionCaps(task);
    const range = metricRange(task.meta.metricKind ?? task.meta.metric);
    const entries: ZooEntryResult[] = [];
    for (const entry of ZOO_ENTRIES) {
      const r = ran.find((x) => x.name === entry.name);
      if (!r) {
        const why = `${record.status}${record.errorType ? `: ${record.errorType}` : ""}`;
        entries.push({
          name: entry.name,
          status: "missing",
          score: null,
          message: `the program ended before this entry (${why})`,
          seconds: 0,
        });
        continue;
      }
      const base = { name: entry.name, seconds: r.seconds };
      if (r.status !== "ok") {
        entries.push({ ...base, status: r.status, score: null, message: r.message ?? null });
        continue;
      }
      const file = join(dir, "submissions", `${entry.name}.csv`);
      const s = await scoreFile(task, dir, file, caps, scorer);
      const outside = s.ok && (!Number.isFinite(s.score) || (range && (s.score < range[0] || s.score > range[1])));
      entries.push(
        s.ok && !outside
          ? { ...base, status: "ok", score: s.score, message: null }
          : {
              ...base,
              status: "invalid",
              score: null,
              message: s.ok ? `score ${s.score} lies outside the metric's range` : s.message,
            },
      );
    }
    return { taskId: task.meta.id, entries, record, seconds: (performance.now() - t0) / 1000 };
  } finally {
    rmSync(jobs, { recursive: true, force: true });
    await own?.close();
  }
}

async function scoreFile(
  task: TaskPackage,
  dir: string,
  file: string,
  caps: ReturnType<typeof submissionCaps>,
  scorer: Scorer,
): Promise<ScoreResult> {
  if (!existsSync(file) || !fileInside(dir, file))
    return { ok: false, kind: "invalid", message: "no submission file (or not a regular file in the job folder)" };
  const tooBig = checkSubmission(file, caps);
  if (tooBig) return { ok: false, kind: "invalid", message: tooBig };
  try {
    return await scorer(task, file);
  } catch (e) {
    return { ok: false, kind: "error", message: e instanceof Error ? e.message : String(e) };
  }
}
