import { setMaxListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TaskPackage } from "../../gym/types.js";
import type { LanguageModel } from "../../llm/spec.js";
import type { GrammarParams } from "../../policy/grammar/index.js";
import { OPERATORS, type NodeView, type Operator } from "../../policy/types.js";
import { SandboxPool } from "../../sandbox/index.js";
import type { Workspace } from "../../store/index.js";
import { createRng, sampleIndex } from "../../util/rng.js";
import { adaptiveBounds, signedScore } from "./adaptive-bounds.js";
import { loadCheckpoint, resolvePolicyParams, saveCheckpoint } from "../checkpoints.js";
import { CheckpointExistsError, ErlError } from "../errors.js";
import { ParentStore } from "./parent-store.js";
import { RlConfig, type RlConfigInput } from "./rl-config.js";
import { consumeBatch, stepMetrics, taskRewardInfo, type RlStepMetrics } from "./rl-step.js";
import { finishRlRun, insertRlRun, readResumeState, writeStep } from "./rl-store.js";
import { runGroup, type ExecuteProgram, type GroupResult, type GroupSpec } from "./rollout-group.js";

export interface TrainRlOptions {
  readonly workspace: Workspace;
  readonly tasks: readonly TaskPackage[];
  /** Start params: "default", a checkpoint name or a params .json file (ignored on resume). */
  readonly from?: string;
  /** Final checkpoint name; step k is stored as `<to>-step<k>`. */
  readonly to: string;
  readonly config?: RlConfigInput;
  /** Continue this run id after a kill (its stored config is used; `config.steps` may extend it). */
  readonly resume?: string;
  readonly runId?: string;
  /** Runs one program (default: a SandboxPool of `workers` slots). Records with workDir get the submission check. */
  readonly execute?: ExecuteProgram;
  /** Pre-execution reward-hacking judge (absent: only the deterministic post-execution check). */
  readonly judge?: LanguageModel;
  readonly now?: () => number;
  readonly onEvent?: (e: RlEvent) => void;
  readonly signal?: AbortSignal;
}

export type RlEvent =
  | { readonly type: "run-start"; readonly runId: string; readonly resumed: boolean; readonly step: number; readonly steps: number }
  | { readonly type: "group"; readonly groupId: string; readonly taskId: string; readonly operator: Operator; readonly version: number; readonly wallS: number }
  | { readonly type: "group-dropped"; readonly groupId: string; readonly lag: number }
  | { readonly type: "step"; readonly metrics: RlStepMetrics; readonly checkpoint: string }
  | { readonly type: "run-end"; readonly runId: string; readonly checkpoint: string };

export interface TrainRlResult {
  readonly runId: string;
  readonly checkpoint: string;
  readonly params: GrammarParams;
  readonly steps: readonly RlStepMetrics[];
  readonly perTask: Record<string, number>;
}

const groupRng = (seed: number, serial: number) => createRng((seed ^ Math.imul(serial + 1, 0x85ebca6b)) >>> 0);

/**
 * Execution-grounded RL of the grammar policy (spec §3.2):
 * 1. start (or resume from the last stored step: its checkpoint, parent store, history and counts);
 * 2. plan groups: the task with the fewest groups so far, an operator from the mix, parents from
 *    the store (∝ fitness), the current params and their version;
 * 3. generate and execute groups (sync: a whole batch per step; async: up to `inFlightGroups` at
 *    once, each sampled from the params current when it starts);
 * 4. consume a batch of completed groups (async: dropping those lagging more than `maxLag`
 *    versions): rewards → advantages → GSPO; store the checkpoint, then the step atomically;
 * 5. store the final checkpoint `to`.
 */
export async function trainRL(opts: TrainRlOptions): Promise<TrainRlResult> {
  const ws = opts.workspace;
  const now = opts.now ?? Date.now;
  const emit = opts.onEvent ?? (() => {});
  if (opts.tasks.length === 0) throw new ErlError("trainRL needs at least one task: pass --tasks <ids|dirs>");
  const taskIds = opts.tasks.map((t) => t.meta.id);
  // 1. Start or resume.
  let cfg: RlConfig;
  let runId: string;
  let params: GrammarParams;
  let version = 0;
  let serial = 0;
  let store: ParentStore;
  let history = new Map<string, number[]>();
  let perTask = new Map<string, number>();
  if (opts.resume) {
    const [row] = await ws.query<{ config: string; tasks: string; from_checkpoint: string; to_name: string }>("SELECT * FROM rl_runs WHERE run_id = $r", { r: opts.resume });
    if (!row) throw new ErlError(`RL run "${opts.resume}" is not in workspace ${ws.dir}: list runs with openmle workspace query ${ws.dir} "SELECT run_id FROM rl_runs"`);
    const stored = JSON.parse(row.tasks) as string[];
    if (stored.join(",") !== taskIds.join(",")) throw new ErlError(`RL run "${opts.resume}" trained on ${stored.join(",")}: pass --tasks ${stored.join(",")}`);
    if (row.to_name !== opts.to) throw new ErlError(`RL run "${opts.resume}" writes checkpoint "${row.to_name}": pass --to ${row.to_name}`);
    cfg = RlConfig.parse({ ...JSON.parse(row.config), ...(opts.config?.steps ? { steps: opts.config.steps } : {}) });
    runId = opts.resume;
    const st = await readResumeState(ws, runId, new Map(opts.tasks.map((t) => [t.meta.id, t.meta.higherIsBetter])), cfg.keepParents);
    params = st.checkpoint ? (await loadCheckpoint(ws, st.checkpoint)).params : (await resolvePolicyParams(row.from_checkpoint, ws)).params;
    ({ store, history, perTask } = st);
    version = st.step;
    serial = st.groupsWritten;
    await ws.exec("UPDATE rl_runs SET status = 'running', ended_at = NULL WHERE run_id = $r", { r: runId });
  } else {
    cfg = RlConfig.parse(opts.config ?? {});
    if ((await ws.query("SELECT name FROM policy_checkpoints WHERE name = $n", { n: opts.to })).length) {
      throw new CheckpointExistsError(`checkpoint "${opts.to}" already exists in ${ws.dir}: pick another --to name`);
    }
    params = (await resolvePolicyParams(opts.from ?? "default", ws)).params;
    runId = opts.runId ?? `rl-${Math.floor(now()).toString(36)}`;
    await insertRlRun(ws, { runId, tasks: taskIds, from: opts.from ?? "default", to: opts.to, cfg });
    store = new ParentStore(cfg.keepParents);
    if (cfg.seedFromRuns) for (const t of opts.tasks) await seedFromEvolve(ws, t, store, history);
  }
  emit({ type: "run-start", runId, resumed: !!opts.resume, step: version, steps: cfg.steps });
  const info = new Map(opts.tasks.map((t) => [t.meta.id, taskRewardInfo(t)]));
  const batchSize = cfg.groupsPerStep ?? opts.tasks.length;
  const jobsDir = mkdtempSync(join(tmpdir(), "openmle-rl-"));
  const pool = opts.execute ? null : new SandboxPool({ cpuSlots: cfg.workers, jobsDir });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one listener per pooled job
  const execute: ExecuteProgram = opts.execute ?? ((job) => pool!.submit({ ...job, limits: { ...job.limits, cpus: 1 }, signal: abort.signal }));
  const runner = { execute, judge: opts.judge, judgeTimeoutMs: cfg.judgeTimeoutMs, limits: { timeoutS: cfg.perRunTimeoutS, memoryMb: cfg.memoryMb }, runId, now };
  const t0 = now();
  let lastStepAt = t0;
  const inFlight = new Map<string, number>();
  const mix = OPERATORS.map((o) => cfg.operatorMix[o]);
  const steps: RlStepMetrics[] = [];

  // 2. Plan one group with the current params.
  const plan = (): GroupSpec => {
    const rng = groupRng(cfg.seed, serial);
    const load = (id: string) => (perTask.get(id) ?? 0) + (inFlight.get(id) ?? 0);
    const task = [...opts.tasks].sort((a, b) => load(a.meta.id) - load(b.meta.id))[0]!;
    const pick = store.pick(task.meta.id, OPERATORS[sampleIndex(rng, mix)]!, rng);
    inFlight.set(task.meta.id, (inFlight.get(task.meta.id) ?? 0) + 1);
    return { groupId: `g${String(serial++).padStart(5, "0")}`, task, operator: pick.operator, parents: pick.parents.map((p) => p.view), params, version, size: cfg.group, rng: rng.fork() };
  };
  const launch = (spec: GroupSpec): Promise<GroupResult> => runGroup(spec, runner).then((g) => {
    inFlight.set(g.task.meta.id, inFlight.get(g.task.meta.id)! - 1);
    emit({ type: "group", groupId: g.groupId, taskId: g.task.meta.id, operator: g.operator, version: g.version, wallS: (g.endedMs - g.startedMs) / 1000 });
    return g;
  });
  // 4. One update from a batch.
  const consume = async (batch: GroupResult[], dropped: GroupResult[]) => {
    const out = consumeBatch(batch, params, { history, store, info, cfg, perTask });
    params = out.params;
    version++;
    const m = stepMetrics(version, version - 1, out.scored, dropped.length, out.gspo, (now() - lastStepAt) / 1000, perTask);
    lastStepAt = now();
    const checkpoint = `${opts.to}-step${version}`;
    await saveCheckpoint(ws, { name: checkpoint, params, parent: version === 1 ? (opts.from ?? "default") : `${opts.to}-step${version - 1}`, source: "rl", dataset: runId, config: cfg, metrics: { ...m } }, { replace: true });
    await writeStep(ws, runId, t0, m, checkpoint, out.scored, dropped, store);
    steps.push(m);
    emit({ type: "step", metrics: m, checkpoint });
  };

  let status: "finished" | "failed" | "killed" = "finished";
  try {
    // 3. Generate, execute, consume.
    if (cfg.mode === "sync") {
      while (version < cfg.steps && !opts.signal?.aborted) {
        const batch = await Promise.all(Array.from({ length: batchSize }, () => launch(plan())));
        await consume(batch, []);
      }
    } else {
      const cap = cfg.inFlightGroups ?? 2 * batchSize;
      const running = new Map<string, Promise<GroupResult>>();
      const queue: GroupResult[] = [];
      let dropped: GroupResult[] = [];
      while (version < cfg.steps && !opts.signal?.aborted) {
        // Never more in flight than the remaining steps can consume (no wasted groups at the end).
        while (running.size < Math.min(cap, (cfg.steps - version) * batchSize - queue.length)) {
          const spec = plan();
          const p = launch(spec);
          p.catch(() => {}); // a failure surfaces through Promise.race; groups still running after it must not crash the process
          running.set(spec.groupId, p);
        }
        const done = await Promise.race(running.values());
        running.delete(done.groupId);
        if (version - done.version > cfg.maxLag) {
          dropped.push(done);
          emit({ type: "group-dropped", groupId: done.groupId, lag: version - done.version });
        } else queue.push(done);
        if (queue.length >= batchSize) {
          await consume(queue.splice(0, batchSize), dropped);
          dropped = [];
        }
      }
      abort.abort();
      await Promise.allSettled(running.values());
    }
    if (opts.signal?.aborted) status = "killed";
  } catch (e) {
    status = "failed";
    abort.abort();
    await finishRlRun(ws, runId, status, { error: String(e), steps: version });
    throw e;
  } finally {
    rmSync(jobsDir, { recursive: true, force: true });
  }
  // 5. The final checkpoint.
  if (status === "finished") {
    await saveCheckpoint(ws, { name: opts.to, params, parent: version ? `${opts.to}-step${version}` : (opts.from ?? "default"), source: "rl", dataset: runId, config: cfg, metrics: { steps: version } }, { replace: !!opts.resume });
  }
  const summary = { steps: version, perTask: Object.fromEntries(perTask), last: steps.at(-1) ?? null };
  await finishRlRun(ws, runId, status, summary);
  emit({ type: "run-end", runId, checkpoint: opts.to });
  return { runId, checkpoint: opts.to, params, steps, perTask: Object.fromEntries(perTask) };
}

/** Seed a task's parent store and reward history from the workspace's evolve runs of it. */
async function seedFromEvolve(ws: Workspace, task: TaskPackage, store: ParentStore, history: Map<string, number[]>): Promise<void> {
  const rows = await ws.query<{ run_id: string; node_id: string; operator: Operator; code: string; plan: string; spec: string | null; status: NodeView["status"]; valid_score: number | null; test_score: number | null; error_signature: string | null }>(
    "SELECT n.* FROM nodes n JOIN runs r USING (run_id) WHERE r.task_id = $t AND n.code IS NOT NULL ORDER BY n.run_id, n.step", { t: task.meta.id });
  if (!rows.length) return;
  const signed = rows.map((r) => (r.status === "success" ? signedScore(r.test_score, task.meta.higherIsBetter) : Number.NaN));
  const rewards = adaptiveBounds([], signed).rewards;
  history.set(task.meta.id, signed.filter(Number.isFinite));
  store.add(task.meta.id, rows.map((r, i) => ({
    id: `${r.run_id}/${r.node_id}`, reward: rewards[i]!,
    view: { nodeId: `${r.run_id}/${r.node_id}`, operator: r.operator, code: r.code, plan: r.plan ?? "", spec: r.spec ? JSON.parse(r.spec) : undefined, status: r.status, validScore: r.valid_score, errorSignature: r.error_signature },
  })));
}
