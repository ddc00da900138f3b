import type { TaskPackage } from "../../gym/types.js";
import { baselineProgram } from "../../eval/index.js";
import { ErlError } from "../errors.js";
import { needsTrivial, staticWorstOf, type TaskScale } from "./fixed-scale.js";
import type { RlConfig } from "./rl-config.js";
import type { ExecuteProgram } from "./rollout-group.js";
import { taskRewardInfo, type TaskRewardInfo } from "./rl-step.js";

/** Whether kit/eval's trivial baseline can run on the task (it reads CSV train and test files). */
const trivialRuns = (t: TaskPackage) => t.meta.files.train.endsWith(".csv") && t.meta.files.test.endsWith(".csv");

/**
 * Refuses, before anything runs, a run whose rule needs static bounds a task cannot have: `bounds.anchor:
 * "static"` uses B_static and W_static alone, so every task needs the metric's (or its leaderboard's) best and
 * a leaderboard or a runnable trivial baseline (rl.trivialWorst not "never"). Without this the rule would fall
 * back to the adaptive anchor and an arm called "static" would run the adaptive rule.
 */
export function checkStaticBounds(tasks: readonly TaskPackage[], cfg: RlConfig): void {
  if (cfg.bounds.anchor !== "static") return;
  const missing = tasks.flatMap((t) => {
    const info = taskRewardInfo(t);
    const why: string[] = [];
    if (info.staticBest === undefined) why.push("no known best value for its metric");
    if (info.staticWorst === undefined && (cfg.trivialWorst === "never" || !trivialRuns(t)))
      why.push(
        cfg.trivialWorst === "never"
          ? "no leaderboard (trivialWorst is never)"
          : "no leaderboard and no CSV files for the trivial baseline",
      );
    return why.length ? [`${t.meta.id} (${why.join("; ")})`] : [];
  });
  if (missing.length)
    throw new ErlError(
      `bounds.anchor "static" needs both static bounds on every task; ${missing.join(", ")}: give the task a ` +
        `leaderboard.csv, or train with adaptive bounds (bounds.anchor "top16")`,
    );
}

/**
 * The run's static bounds per task (fixed-scale.ts): B_static from taskRewardInfo; W_static from the leaderboard,
 * else, when the rule uses it (needsTrivial), from the trivial baseline run once per task through `execute`.
 * `stored` (a resumed run's rows) is used as is when it covers every task.
 */
export async function runTaskScales(
  tasks: readonly TaskPackage[],
  cfg: RlConfig,
  execute: ExecuteProgram,
  stored: readonly TaskScale[] = [],
): Promise<TaskScale[]> {
  const have = new Map(stored.map((s) => [s.taskId, s]));
  if (tasks.every((t) => have.has(t.meta.id))) return tasks.map((t) => have.get(t.meta.id)!);
  const limits = { timeoutS: cfg.perRunTimeoutS, memoryMb: cfg.memoryMb, cpus: 1 };
  return Promise.all(
    tasks.map(async (t): Promise<TaskScale> => {
      const info = taskRewardInfo(t);
      let trivialScore: number | null = null;
      if (info.staticWorst === undefined && needsTrivial(cfg.trivialWorst, cfg.bounds.anchor) && trivialRuns(t)) {
        const rec = await execute({ task: t, code: baselineProgram(t, "trivial"), limits });
        trivialScore = rec.status === "success" && Number.isFinite(rec.testScore) ? rec.testScore! : null;
      }
      const worst = staticWorstOf(info.staticWorst, trivialScore, info.higherIsBetter);
      if (cfg.bounds.anchor === "static" && worst.staticWorst === undefined)
        throw new ErlError(
          `bounds.anchor "static" needs a worst bound for ${t.meta.id}, and its trivial baseline was not graded: ` +
            `check the task with openmle task check ${t.dir}, or train with bounds.anchor "top16"`,
        );
      return {
        taskId: t.meta.id,
        higherIsBetter: info.higherIsBetter,
        staticBest: info.staticBest ?? null,
        staticWorst: worst.staticWorst ?? null,
        worstFrom: worst.worstFrom,
        trivialScore,
      };
    }),
  );
}

/** The reward settings the trainer uses: the task's info with the run's W_static (leaderboard or trivial). */
export function rewardInfoOf(t: TaskPackage, scale: TaskScale): TaskRewardInfo {
  const info = taskRewardInfo(t);
  return scale.staticWorst !== null ? { ...info, staticWorst: scale.staticWorst } : info;
}
