import { availableParallelism } from "node:os";
import type { TaskPackage } from "../gym/types.js";
import type { LanguageModel } from "../llm/spec.js";
import { operatorPromptChars } from "../policy/index.js";
import type { OperatorContext, Policy, PolicyOutput } from "../policy/types.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/types.js";
import type { Workspace } from "../store/index.js";
import { createRng } from "../util/rng.js";
import { aideStep } from "./aide-step.js";
import { buildContext } from "./build-context.js";
import type { EvolveConfig } from "./config.js";
import { evoStep, parentProbabilities } from "./evo-step.js";
import type { EvoEvent } from "./events.js";
import { buildCard, type ExperienceCard } from "./experience-card.js";
import { admits, childLineageDepth, islandMembers } from "./islands.js";
import { mctsStep } from "./mcts-step.js";
import { synthesizeMemory } from "./memory-synthesis.js";
import { detectImports, detectMethodFamily } from "./method-family.js";
import { writeNode, writeNodeTiming } from "./node-store.js";
import { nodeTiming } from "./node-timing.js";
import { stepBudget } from "./run-budget.js";
import { nodeIdOf, type Action, type EvoNode } from "./types.js";

/** The per-step generator: a pure function of (seed, step), so resumed and fresh runs draw alike. */
export const stepRng = (seed: number, step: number) => createRng((seed ^ Math.imul(step + 1, 0x9e3779b1)) >>> 0);

/**
 * The step's action from the stored tree (the planner draws from stepRng(seed, step)); null (MCTS only,
 * with steps in flight) = wait for the next node. `last` is the lane's previous node, `inFlight` the
 * actions of the steps still running.
 */
export function planStep(
  cfg: EvolveConfig,
  nodes: readonly EvoNode[],
  step: number,
  last: EvoNode | null,
  inFlight: Action[],
): Action | null {
  const rng = stepRng(cfg.seed, step);
  if (cfg.harness === "aide") return aideStep(nodes, rng, cfg.aide, inFlight);
  if (cfg.harness === "mcts") return mctsStep(nodes, cfg.mcts, inFlight, cfg.debugTimeCapS);
  return evoStep({ nodes, step, last, pending: inFlight, rng, config: cfg });
}

/** What one run's node steps share; `nodes` is the run's live list (the worker pool appends to it). */
export interface NodeStepDeps {
  readonly task: TaskPackage;
  readonly policy: Policy;
  readonly evaluate: (job: SandboxJob) => Promise<ExecutionRecord>;
  readonly ws: Workspace;
  readonly runId: string;
  readonly cfg: EvolveConfig;
  readonly nodes: readonly EvoNode[];
  readonly priors: string;
  readonly memoryModel?: LanguageModel;
  /** The run's clock (ms); every duration of the node's timing row is read from it. */
  readonly now: () => number;
  /** Seconds since the run started, by `now`. */
  readonly elapsedS: () => number;
  /** The serialised store section (worker-pool.ts `serialised`): context reads and node writes. */
  readonly locked: <T>(fn: () => Promise<T>) => Promise<T>;
  readonly emit: (e: EvoEvent) => void;
}

/** A made node with its card and the context its policy saw. */
export interface NodeStepResult {
  readonly node: EvoNode;
  readonly card: ExperienceCard;
  readonly ctx: OperatorContext;
}

/** Runs `fn`, reporting its seconds by `now` to `done` (also when it throws). */
async function timed<T>(now: () => number, done: (s: number) => void, fn: () => Promise<T>): Promise<T> {
  const t = now();
  try {
    return await fn();
  } finally {
    done((now() - t) / 1000);
  }
}

/**
 * The node-making step: 1. context (memory synthesised on demand, in the store section); 2. the policy
 * writes a program (its rng a fork of stepRng); 3. it is executed; 4. node and card are made; 5. node,
 * record and card are written in one transaction, then (AIRA-Evo with a memory model) its summary, then
 * where its time went. `stepStart` (by `now`) was read before planning, so node_s covers the whole step.
 */
export function nodeStep(
  d: NodeStepDeps,
): (step: number, action: Action, stepStart: number) => Promise<NodeStepResult> {
  const { task, ws, runId, cfg, nodes, now } = d;
  // Several workers share the machine's cores: each job's thread caps (OMP_NUM_THREADS, ...) get
  // its share, so parallel jobs do not oversubscribe the cores; one worker keeps the sandbox default.
  const limits = {
    timeoutS: cfg.perRunTimeoutS,
    memoryMb: cfg.memoryMb,
    ...(cfg.gpus ? { gpus: cfg.gpus } : {}),
    ...(cfg.workers > 1 ? { cpus: Math.max(1, Math.floor(availableParallelism() / cfg.workers)) } : {}),
  };
  return async (step, action, stepStart) => {
    d.emit({ type: "step-start", step, action });
    const budget = stepBudget(cfg, step, d.elapsedS);
    let contextS = 0;
    const ctx = await d.locked(() =>
      timed(
        now,
        (s) => (contextS += s),
        () => buildContext(ws, runId, cfg, action, nodes, budget, { model: d.memoryModel, priors: d.priors }),
      ),
    );
    const rng = stepRng(cfg.seed, step).fork();
    const nodeId = nodeIdOf(step);
    // runId/nodeId let a recording LLM policy link its llm_calls rows to this node.
    let policyS = 0;
    const out = await timed(
      now,
      (s) => (policyS = s),
      () => d.policy.propose(task, action.operator, { ...ctx, runId, nodeId }, rng),
    );
    let evaluateS = 0;
    const rec = await timed(
      now,
      (s) => (evaluateS = s),
      () => d.evaluate({ task, code: out.code, limits, runId, nodeId }),
    );
    const node = makeNode(task, cfg, nodes, step, nodeId, action, out, rec);
    const parentUtilities = action.selection
      ? action.parents
          .map((p) => action.selection!.find((x) => x.nodeId === p)?.utility)
          .filter((u): u is number => u !== undefined)
      : null;
    const card = buildCard(runId, node, nodes, parentUtilities, utilityOf(cfg, nodes, node), {
      promptChars: operatorPromptChars(task, action.operator, ctx),
    });
    await d.locked(async () => {
      let storeS = 0;
      await timed(
        now,
        (s) => (storeS = s),
        () => writeNode(ws, runId, node, rec, card),
      );
      if (cfg.harness === "aira-evo" && d.memoryModel)
        await timed(
          now,
          (s) => (contextS += s),
          () => synthesizeMemory(ws, runId, [nodeId], { model: d.memoryModel }),
        );
      // Where the node's time went (the timing row's own write is the only part left out). A record that
      // started before the step's whole millisecond was reused (stored earlier), not run by this step.
      const reused = rec.startedAt.getTime() < Math.floor(stepStart);
      const nodeS = (now() - stepStart) / 1000;
      await writeNodeTiming(
        ws,
        runId,
        nodeId,
        nodeTiming({ nodeS, policyS, contextS, evaluateS, storeS }, rec, reused),
      );
    });
    return { node, card, ctx };
  };
}

const isTree = (cfg: EvolveConfig) => ["aide", "mcts"].includes(cfg.harness);

/** The node of one step, from its action, the policy's output and the execution record. */
function makeNode(
  task: TaskPackage,
  cfg: EvolveConfig,
  nodes: readonly EvoNode[],
  step: number,
  nodeId: string,
  action: Action,
  out: PolicyOutput,
  rec: ExecutionRecord,
): EvoNode {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const parents = action.parents.map((p) => byId.get(p)!).filter(Boolean);
  const v = rec.validScore;
  const fitness =
    rec.status === "success" && v !== null && Number.isFinite(v) ? (task.meta.higherIsBetter ? v : -v) : null;
  const tree = isTree(cfg);
  const island = tree ? 0 : action.island;
  const members = islandMembers(nodes, cfg.islands, cfg.islandMaxSize)[island % cfg.islands] ?? [];
  const code = out.code ?? "";
  const imports = detectImports(code);
  const lineageDepth = childLineageDepth(action.operator, parents);
  const generation = tree ? lineageDepth : (action.generation ?? 0);
  return {
    nodeId,
    step,
    island,
    generation,
    lineageDepth,
    operator: action.operator,
    parents: action.parents,
    status: rec.status,
    errorSignature: rec.errorSignature,
    validScore: v,
    testScore: rec.testScore,
    fitness,
    admitted: tree ? fitness !== null : admits(members, fitness, cfg.admission, generation),
    plan: out.plan,
    code,
    spec: out.spec,
    logProb: out.logProb ?? null,
    executionId: rec.executionId,
    sandboxS: rec.wallS,
    traceback: rec.traceback,
    stdoutTail: rec.stdoutTail,
    methodFamily: detectMethodFamily(code, imports),
    imports,
    usage: out.usage,
  };
}

/** An admitted island node's own selection utility among its island (null for tree harnesses). */
function utilityOf(cfg: EvolveConfig, nodes: readonly EvoNode[], node: EvoNode): number | null {
  if (!node.admitted || isTree(cfg)) return null;
  const members = islandMembers([...nodes, node], cfg.islands, cfg.islandMaxSize)[node.island % cfg.islands]!;
  return parentProbabilities(members, [...nodes, node], cfg).find((p) => p.nodeId === node.nodeId)?.utility ?? null;
}
