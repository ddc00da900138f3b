import { randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { SCORER_ENV } from "./scorer-worker.js";
import {
  MetricLoadError,
  metricOptions,
  packagePaths,
  PythonError,
  pythonHelper,
  type ScoreResult,
  type TaskPackage,
} from "../gym/index.js";
import {
  dropPrivilegesPrefix,
  finishArgs,
  interpreterPrefix,
  isolationArgs,
  JobCgroup,
  limitedCommand,
  openUidQuotaFilter,
  sandboxHostUser,
  sandboxPython,
  seccompArgs,
  supervise,
} from "../jail/index.js";

/** Limits of one scoring run (the task's own metric.py on one submission). */
export interface ScorerLimits {
  /** Wall-clock limit in seconds; past it the scorer is killed and the record says metric_error. */
  readonly timeoutS: number;
  /** Memory cap in MiB. */
  readonly memoryMb: number;
}

export const DEFAULT_SCORER_LIMITS: ScorerLimits = { timeoutS: 120, memoryMb: 2048 };

/**
 * A scorer that runs the task's utils/metric.py in a sandbox of its own: the metric harness,
 * metric.py, the hidden answers and the submission are copied in read-only through file
 * descriptors the kit opened (no host path is mounted, links are not followed), with no network,
 * /proc read-only, as the unprivileged sandbox user when the kit is root, in a cgroup with
 * `limits.memoryMb` and killed past `limits.timeoutS`. The answers exist only inside this
 * sandbox, never in a job's. Same results as gym's
 * scoreSubmission, which mounts those files in the package jail instead.
 */
export function sandboxedScorer(
  opts: { limits?: Partial<ScorerLimits>; bwrap?: string } = {},
): (task: TaskPackage, submissionCsv: string) => Promise<ScoreResult> {
  const limits = { ...DEFAULT_SCORER_LIMITS, ...opts.limits };
  const bwrap = opts.bwrap ?? "bwrap";
  const user = sandboxHostUser();
  return async (task, submissionCsv) => {
    const p = packagePaths(task.dir);
    const fds: number[] = [];
    const open = (path: string, what: string) => {
      let fd: number;
      try {
        fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch (e) {
        throw new MetricLoadError(`cannot open ${what} ${path}: ${(e as Error).message}`, path);
      }
      fds.push(fd);
      if (!fstatSync(fd).isFile()) throw new MetricLoadError(`${what} ${path} is not a regular file`, path);
      return fd;
    };
    const cg = JobCgroup.create(`score-${randomUUID()}`, limits.memoryMb, 256);
    try {
      open(pythonHelper("metric_harness.py"), "the metric harness");
      open(p.metric, "the task's metric");
      open(p.answers, "the task's answers");
      try {
        open(submissionCsv, "the submission");
      } catch (e) {
        return { ok: false, kind: "invalid", message: (e as Error).message };
      }
      const a = isolationArgs();
      // The same interpreter as the jobs (OPENMLE_PYTHON's virtualenv mounted read-only when outside /usr).
      const python = sandboxPython();
      const prefix = interpreterPrefix(python);
      if (prefix) a.push("--ro-bind", prefix, prefix);
      a.push("--dir", "/score");
      ["metric_harness.py", "metric.py", "answers.csv", "submission.csv"].forEach((name, i) =>
        a.push("--perms", "0444", "--ro-bind-data", String(3 + i), `/score/${name}`),
      );
      a.push("--chdir", "/tmp");
      const filter = openUidQuotaFilter();
      if (filter !== null) a.push(...seccompArgs(filter, 3 + fds.push(filter) - 1)); // closed with the others
      const env = SCORER_ENV;
      const command = [
        python,
        "/score/metric_harness.py",
        "score",
        "/score/metric.py",
        "/score/answers.csv",
        "/score/submission.csv",
        JSON.stringify(metricOptions(task)),
      ];
      const full = [...(user ? dropPrivilegesPrefix(user) : []), bwrap, ...finishArgs(a, env, command)];
      const [cmd, args] = limitedCommand(
        cg,
        { fsizeBytes: 64 * 1024 * 1024, asBytes: Math.round(limits.memoryMb * 1024 * 1024) },
        full,
      );
      const r = await supervise({
        command: cmd,
        args,
        env: { PATH: "/usr/bin:/bin" },
        timeoutS: limits.timeoutS,
        outputCapBytes: 256 * 1024,
        killTree: cg ? () => cg.killAll() : undefined,
        extraFds: fds,
      });
      if (cg) await cg.killAll();
      const oom = (cg?.stats().oomKills ?? 0) > 0;
      if (r.timedOut)
        return {
          ok: false,
          kind: "error",
          message: `the task's metric ran past the scorer's ${limits.timeoutS} s limit and was killed`,
        };
      if (oom)
        return {
          ok: false,
          kind: "error",
          message: `the task's metric used more than the scorer's ${limits.memoryMb} MiB memory cap and was killed`,
        };
      const line = r.stdout
        .split("\n")
        .reverse()
        .find((l) => l.startsWith("OPENMLE_RESULT "));
      if (!line) {
        const tail = (r.stderr || r.stdout).trim().split("\n").slice(-5).join(" | ");
        throw new PythonError(
          `the scoring sandbox produced no ` +
            `result (exit ${r.exitCode ?? r.signal}): ${tail || r.spawnError || "no output"}`,
          p.metric,
        );
      }
      const out = JSON.parse(line.slice("OPENMLE_RESULT ".length)) as {
        ok: boolean;
        score?: number;
        kind?: string;
        message?: string;
      };
      if (out.ok && typeof out.score === "number") return { ok: true, score: out.score };
      if (out.kind === "load")
        throw new MetricLoadError(
          (out.message ?? "cannot load the metric").replaceAll("/score/metric.py", p.metric),
          p.metric,
        );
      if (out.kind === "invalid") return { ok: false, kind: "invalid", message: out.message ?? "invalid submission" };
      return { ok: false, kind: "error", message: out.message ?? "metric error" };
    } finally {
      for (const fd of fds) closeSync(fd);
      cg?.remove();
    }
  };
}
