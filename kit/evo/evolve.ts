import { availableParallelism } from "node:os";
import type { TaskPackage } from "../gym/types.js";
import type { LanguageModel } from "../llm/spec.js";
import { createGrammarPolicy } from "../policy/index.js";
import type { Policy } from "../policy/types.js";
import { runSandbox } from "../sandbox/index.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/types.js";
import { finishRun, startRun, type Workspace } from "../store/index.js";
import { recordTaskReview } from "../gym/index.js";
import { createRng } from "../util/rng.js";
import { aideStep } from "./aide-step.js";
import { buildContext, contextChars } from "./build-context.js";
import { EvolveConfig, upgradeStoredConfig, type EvolveConfigInput } from "./config.js";
import { ResumeError } from "./errors.js";
import { evoStep, parentProbabilities } from "./evo-step.js";
import type { EvoEvent } from "./events.js";
import { buildCard } from "./experience-card.js";
import { admits, childLineageDepth, islandMembers } from "./islands.js";
import { mctsStep } from "./mcts-step.js";
import { synthesizeMemory } from "./memory-synthesis.js";
import { detectImports, detectMethodFamily } from "./method-family.js";
import { detachOrphanExecutions, loadNodes, writeNode, writeNodeTiming } from "./node-store.js";
import { nodeTiming } from "./node-timing.js";
import { distillPriors } from "./priors.js";
import { champion, summarise, type RunSummary } from "./run-summary.js";
import { nodeIdOf, type Action, type EvoNode } from "./types.js";

export interface EvolveOptions {
  readonly task: TaskPackage;
  /** Writes the programs: default the embedded grammar policy (offline). */
  readonly policy?: Policy;
  readonly workspace: Workspace;
  /** Runs one program: default the sandbox's runSandbox; any function returning an ExecutionRecord. */
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  readonly config?: EvolveConfigInput;
  /** Continue this run from its workspace (its stored config is used; `config.steps` may extend it). */
  readonly resume?: string;
  readonly runId?: string;
  /** Memory model for on-demand summaries (absent → deterministic card summaries). */
  readonly memoryModel?: LanguageModel;
  readonly now?: () => number;
  readonly onEvent?: (e: EvoEvent) => void;
  readonly signal?: AbortSignal;
}

export interface EvolveResult {
  readonly runId: string;
  readonly config: EvolveConfig;
  readonly nodes: readonly EvoNode[];
  readonly champion: EvoNode | null;
  readonly summary: RunSummary;
}

/** The per-step generator: a pure function of (seed, step), so resumed and fresh runs draw alike. */
export const stepRng = (seed: number, step: number) => createRng((seed ^ Math.imul(step + 1, 0x9e3779b1)) >>> 0);

/**
 * Long-horizon search (spec §4). Each step: 1. the harness picks an operator and parents from the
 * stored tree; 2. the context is built (memory synthesised on demand); 3. the policy writes a
 * program; 4. it is executed; 5. the node, its execution record and its experience card are
 * written in one transaction (an evaluate that stores records itself writes the record first; a
 * resume detaches a record whose node a kill prevented, see detachOrphanExecutions). `workers` > 1 keeps that many steps in flight (Evo-Max).
 */
export async function evolve(opts: EvolveOptions): Promise<EvolveResult> {
  const { task, workspace: ws } = opts;
  const policy = opts.policy ?? createGrammarPolicy();
  const evaluate = opts.evaluate ?? ((job: SandboxJob) => runSandbox(job));
  const now = opts.now ?? Date.now;
  const emit = opts.onEvent ?? (() => {});
  const t0 = now();
  // 1. Start or resume the run.
  let cfg: EvolveConfig;
  let runId: string;
  let nodes: EvoNode[] = [];
  if (opts.resume) {
    const rows = await ws.query<{ task_id: string; config: string }>("SELECT task_id, config FROM runs WHERE run_id = $r", { r: opts.resume });
    if (!rows.length) throw new ResumeError(`run "${opts.resume}" is not in workspace ${ws.dir}. List runs with: openmle workspace query ${ws.dir} "SELECT run_id FROM runs".`);
    if (rows[0]!.task_id !== task.meta.id) throw new ResumeError(`run "${opts.resume}" is for task "${rows[0]!.task_id}", not "${task.meta.id}". Pass --task ${rows[0]!.task_id}.`);
    const stored = upgradeStoredConfig(JSON.parse(rows[0]!.config) as Record<string, unknown>) as EvolveConfigInput;
    cfg = EvolveConfig.parse({ ...stored, ...(opts.config?.steps ? { steps: opts.config.steps } : {}) });
    runId = opts.resume;
    nodes = await loadNodes(ws, runId);
    await detachOrphanExecutions(ws, runId);
    await ws.exec("UPDATE runs SET status = 'running', ended_at = NULL WHERE run_id = $r", { r: runId });
  } else {
    cfg = EvolveConfig.parse(opts.config ?? {});
    runId = await startRun(ws, { taskId: task.meta.id, harness: cfg.harness, policy: policy.name, seed: cfg.seed, config: cfg, runId: opts.runId });
  }
  // The task's row (modality, metric direction) lets evaluate() grade and group this run.
  await recordTaskReview(ws, task, {});
  emit({ type: "run-start", runId, resumed: !!opts.resume, nodes: nodes.length, steps: cfg.steps });
  const priors = cfg.priors ? await distillPriors(ws, task.meta.id) : "";

  // 2. Steps still to do: gaps left by a kill (in-flight jobs), then the rest, in order.
  const done = new Set(nodes.map((n) => n.step));
  const todo: number[] = [];
  for (let s = 0; s < cfg.steps; s++) if (!done.has(s)) todo.push(s);
  const lanes: (EvoNode | null)[] = Array.from({ length: cfg.workers }, (_, i) => nodes[nodes.length - cfg.workers + i] ?? null);
  const pending = new Map<number, Action>();
  let serial: Promise<unknown> = Promise.resolve();
  const locked = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = serial.then(fn);
    serial = p.catch(() => {});
    return p;
  };
  let stopReason: RunSummary["stopReason"] = "steps";
  const sandboxUsed = () => nodes.reduce((s, n) => s + n.sandboxS, 0);
  const budgetLeft = (): boolean => {
    if (opts.signal?.aborted) return (stopReason = "aborted"), false;
    if (cfg.maxWallS > 0 && (now() - t0) / 1000 >= cfg.maxWallS) return (stopReason = "wall-time"), false;
    if (cfg.maxSandboxS > 0 && sandboxUsed() >= cfg.maxSandboxS) return (stopReason = "sandbox-time"), false;
    return true;
  };

  /** The step's action; null (MCTS only, with steps in flight) = wait for the next node. */
  const plan = (step: number, lane: number): Action | null => {
    const rng = stepRng(cfg.seed, step);
    const inFlight = [...pending.values()];
    if (cfg.harness === "aide") return aideStep(nodes, rng, cfg.aide, inFlight);
    if (cfg.harness === "mcts") return mctsStep(nodes, cfg.mcts, inFlight, cfg.debugTimeCapS);
    return evoStep({ nodes, step, last: lanes[lane] ?? null, pending: inFlight, rng, config: cfg });
  };

  // Several workers share the machine's cores: each job's thread caps (OMP_NUM_THREADS, ...) get
  // its share, so parallel jobs do not oversubscribe the cores; one worker keeps the sandbox default.
  const jobLimits = {
    timeoutS: cfg.perRunTimeoutS, memoryMb: cfg.memoryMb,
    ...(cfg.workers > 1 ? { cpus: Math.max(1, Math.floor(availableParallelism() / cfg.workers)) } : {}),
  };

  // A worker whose harness must wait for an outcome (MCTS selection) sleeps until the next node is written.
  let wake = () => {};
  let nodeWritten = new Promise<void>((r) => (wake = r));
  const notify = () => {
    wake();
    nodeWritten = new Promise<void>((r) => (wake = r));
  };

  // 3. Workers: each takes the next step, plans, asks the policy, executes and writes.
  const worker = async (lane: number) => {
    while (todo.length && budgetLeft()) {
      const step = todo.shift()!;
      const stepStart = performance.now();
      const stepStartMs = Date.now();
      const action = plan(step, lane);
      if (!action) {
        todo.unshift(step);
        await nodeWritten;
        continue;
      }
      pending.set(step, action);
      emit({ type: "step-start", step, action });
      const budget = {
        remainingSteps: cfg.steps - step,
        remainingTimeS: cfg.maxWallS > 0 ? Math.max(0, cfg.maxWallS - (now() - t0) / 1000) : Infinity,
        perRunTimeLimitS: cfg.perRunTimeoutS,
      };
      let contextS = 0;
      const ctx = await locked(() => timed((s) => (contextS += s), () => buildContext(ws, runId, cfg, action, nodes, budget, { model: opts.memoryModel, priors })));
      const rng = stepRng(cfg.seed, step).fork();
      const nodeId = nodeIdOf(step);
      // runId/nodeId let a recording LLM policy link its llm_calls rows to this node.
      let policyS = 0;
      const out = await timed((s) => (policyS = s), () => policy.propose(task, action.operator, { ...ctx, runId, nodeId }, rng));
      let evaluateS = 0;
      const rec = await timed((s) => (evaluateS = s), () => evaluate({ task, code: out.code, limits: jobLimits, runId, nodeId }));
      const node = makeNode(step, nodeId, action, out, rec);
      const parentUtilities = action.selection ? action.parents.map((p) => action.selection!.find((x) => x.nodeId === p)?.utility).filter((u): u is number => u !== undefined) : null;
      const card = buildCard(runId, node, nodes, parentUtilities, utilityOf(node));
      await locked(async () => {
        let storeS = 0;
        await timed((s) => (storeS = s), () => writeNode(ws, runId, node, rec, card));
        if (cfg.harness === "aira-evo" && opts.memoryModel) await timed((s) => (contextS += s), () => synthesizeMemory(ws, runId, [nodeId], { model: opts.memoryModel }));
        // Where the node's time went (the timing row's own write is the only part left out).
        const reused = rec.startedAt.getTime() < stepStartMs;
        const nodeS = (performance.now() - stepStart) / 1000;
        await writeNodeTiming(ws, runId, nodeId, nodeTiming({ nodeS, policyS, contextS, evaluateS, storeS }, rec, reused));
      });
      nodes.push(node);
      nodes.sort((a, b) => a.step - b.step);
      pending.delete(step);
      lanes[lane] = node;
      notify();
      const best = champion(nodes);
      const mins = (now() - t0) / 60000;
      emit({ type: "node", step, node, card, action, contextChars: contextChars(ctx), done: nodes.length, total: cfg.steps, best: best?.validScore ?? null, nodesPerMin: mins > 0 ? nodes.length / mins : 0 });
    }
  };

  const makeNode = (step: number, nodeId: string, action: Action, out: Awaited<ReturnType<Policy["propose"]>>, rec: ExecutionRecord): EvoNode => {
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const parents = action.parents.map((p) => byId.get(p)!).filter(Boolean);
    const v = rec.validScore;
    const fitness = rec.status === "success" && v !== null && Number.isFinite(v) ? (task.meta.higherIsBetter ? v : -v) : null;
    const tree = ["aide", "mcts"].includes(cfg.harness);
    const island = tree ? 0 : action.island;
    const members = islandMembers(nodes, cfg.islands, cfg.islandMaxSize)[island % cfg.islands] ?? [];
    const code = out.code ?? "";
    const imports = detectImports(code);
    const lineageDepth = childLineageDepth(action.operator, parents);
    const generation = tree ? lineageDepth : action.generation ?? 0;
    return {
      nodeId, step, island, generation, lineageDepth, operator: action.operator, parents: action.parents,
      status: rec.status, errorSignature: rec.errorSignature, validScore: v, testScore: rec.testScore, fitness,
      admitted: tree ? fitness !== null : admits(members, fitness, cfg.admission, generation),
      plan: out.plan, code, spec: out.spec, logProb: out.logProb ?? null, executionId: rec.executionId, sandboxS: rec.wallS,
      traceback: rec.traceback, stdoutTail: rec.stdoutTail, methodFamily: detectMethodFamily(code, imports), imports, usage: out.usage,
    };
  };
  const utilityOf = (node: EvoNode): number | null => {
    if (!node.admitted || ["aide", "mcts"].includes(cfg.harness)) return null;
    const members = islandMembers([...nodes, node], cfg.islands, cfg.islandMaxSize)[node.island % cfg.islands]!;
    return parentProbabilities(members, [...nodes, node], cfg).find((p) => p.nodeId === node.nodeId)?.utility ?? null;
  };

  /** Runs `fn`, reporting its wall seconds to `done`. */
  const timed = async <T>(done: (s: number) => void, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      done((performance.now() - t) / 1000);
    }
  };

  let failed: unknown = null;
  await Promise.all(Array.from({ length: cfg.workers }, (_, i) => worker(i).catch((e) => { failed ??= e; todo.length = 0; notify(); })));
  const summary = summarise(nodes, {
    runId, taskId: task.meta.id, harness: cfg.harness, policy: policy.name, seed: cfg.seed, wallS: (now() - t0) / 1000, stopReason,
  });
  await locked(() => finishRun(ws, runId, failed ? "failed" : stopReason === "aborted" ? "killed" : "finished", failed ? { ...summary, error: String(failed) } : summary));
  if (failed) throw failed;
  emit({ type: "run-end", summary });
  return { runId, config: cfg, nodes, champion: champion(nodes), summary };
}

