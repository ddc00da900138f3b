import type { ExecutionRecord } from "../sandbox/types.js";
import type { Workspace } from "../store/index.js";
import type { ExperienceCard } from "./experience-card.js";
import type { NodeTiming } from "./node-timing.js";
import type { EvoNode } from "./types.js";

/**
 * Write one evaluated node with its execution record and experience card in one transaction,
 * so a run killed at any moment has each node entirely or not at all. An evaluate that stores
 * records itself (runSandbox with a workspace, the queue client) writes the record earlier, in its
 * own transaction: see detachOrphanExecutions for what a kill between the two leaves.
 */
export async function writeNode(
  ws: Workspace,
  runId: string,
  node: EvoNode,
  rec: ExecutionRecord,
  card: ExperienceCard,
): Promise<void> {
  await ws.transaction(async () => {
    // The sandbox may already have stored this record (runSandbox with a workspace, or a reused one).
    const known = await ws.query("SELECT 1 FROM executions WHERE execution_id = $id", { id: rec.executionId });
    // A record detached on resume (below) and reused for the same step's program belongs to this node again.
    if (known.length) {
      await ws.exec("UPDATE executions SET node_id = $n WHERE execution_id = $id AND run_id = $r AND node_id IS NULL", {
        n: node.nodeId,
        id: rec.executionId,
        r: runId,
      });
    } else
      await ws.append("executions", [
        {
          execution_id: rec.executionId,
          idempotency_key: rec.idempotencyKey,
          run_id: runId,
          node_id: node.nodeId,
          task_id: rec.taskId,
          backend: rec.backend,
          status: rec.status,
          valid_score: rec.validScore,
          test_score: rec.testScore,
          error_type: rec.errorType,
          error_signature: rec.errorSignature,
          traceback: rec.traceback,
          stdout_tail: rec.stdoutTail,
          stderr_tail: rec.stderrTail,
          wall_s: rec.wallS,
          cpu_s: rec.cpuS,
          peak_mem_mb: rec.peakMemMb,
          artifacts: rec.artifacts,
          code_hash: rec.codeHash,
          limits: rec.limits,
          started_at: rec.startedAt,
          ended_at: rec.endedAt,
        },
      ]);
    await ws.append("nodes", [
      {
        run_id: runId,
        node_id: node.nodeId,
        island: node.island,
        step: node.step,
        generation: node.generation,
        operator: node.operator,
        parents: node.parents,
        status: node.status,
        error_signature: node.errorSignature,
        valid_score: node.validScore,
        test_score: node.testScore,
        fitness: node.fitness,
        reward: card.reward,
        admitted: node.admitted,
        plan: node.plan,
        code: node.code,
        spec: node.spec === undefined ? null : node.spec,
        log_prob: node.logProb,
        execution_id: rec.executionId,
      },
    ]);
    await ws.append("cards", [card as unknown as Record<string, unknown>]);
  });
}

/**
 * Recovery after a kill: an execution row of `runId` that names a node the run does not have was
 * stored by the evaluate (a sandbox cache entry) just before the process died, before its node was
 * written. Its node id is cleared, so every execution that names a node has that node; the row
 * stays as a cache entry for its idempotency key, so when the resumed step proposes the same
 * program the stored result is reused (not re-run) and writeNode attaches it to the new node.
 * Returns how many rows were detached.
 */
export async function detachOrphanExecutions(ws: Workspace, runId: string): Promise<number> {
  const orphans = await ws.query<{ n: number }>(
    `SELECT count(*) AS n FROM executions
     WHERE run_id = $r AND node_id IS NOT NULL AND node_id NOT IN (SELECT node_id FROM nodes WHERE run_id = $r)`,
    { r: runId },
  );
  const n = orphans[0]!.n;
  if (n > 0) {
    await ws.exec(
      `UPDATE executions SET node_id = NULL
       WHERE run_id = $r AND node_id IS NOT NULL AND node_id NOT IN (SELECT node_id FROM nodes WHERE run_id = $r)`,
      { r: runId },
    );
  }
  return n;
}

interface NodeRow {
  node_id: string;
  step: number;
  island: number;
  generation: number;
  lineage_depth: number | null;
  operator: EvoNode["operator"];
  parents: string[] | null;
  status: EvoNode["status"];
  error_signature: string | null;
  valid_score: number | null;
  test_score: number | null;
  fitness: number | null;
  admitted: boolean;
  plan: string | null;
  code: string | null;
  spec: string | null;
  log_prob: number | null;
  execution_id: string;
  wall_s: number | null;
  traceback: string | null;
  stdout_tail: string | null;
  method_family: string | null;
  imports: string[] | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  model_time_s: number | null;
  cost_usd: number | null;
}

/** The run's nodes, rebuilt from the nodes, executions and cards tables, in step order. */
export async function loadNodes(ws: Workspace, runId: string): Promise<EvoNode[]> {
  const rows = await ws.query<NodeRow>(
    `SELECT n.*, e.wall_s, e.traceback, e.stdout_tail, c.lineage_depth, c.method_family, c.imports, c.prompt_tokens,
            c.completion_tokens, c.model_time_s, c.cost_usd
     FROM nodes n LEFT JOIN executions e ON e.execution_id = n.execution_id
     LEFT JOIN cards c ON c.run_id = n.run_id AND c.node_id = n.node_id
     WHERE n.run_id = $runId ORDER BY n.step`,
    { runId },
  );
  return rows.map((r) => ({
    nodeId: r.node_id,
    step: r.step,
    island: r.island,
    generation: r.generation,
    lineageDepth: r.lineage_depth ?? r.generation,
    operator: r.operator,
    parents: r.parents ?? [],
    status: r.status,
    errorSignature: r.error_signature,
    validScore: r.valid_score,
    testScore: r.test_score,
    fitness: r.fitness,
    admitted: r.admitted,
    plan: r.plan ?? "",
    code: r.code ?? "",
    spec: r.spec === null ? undefined : JSON.parse(r.spec),
    logProb: r.log_prob,
    executionId: r.execution_id,
    sandboxS: r.wall_s ?? 0,
    traceback: r.traceback,
    stdoutTail: r.stdout_tail ?? "",
    methodFamily: r.method_family ?? "unknown",
    imports: r.imports ?? [],
    usage: {
      promptChars: 0,
      promptTokens: r.prompt_tokens ?? 0,
      completionTokens: r.completion_tokens ?? 0,
      latencyMs: (r.model_time_s ?? 0) * 1000,
      costUsd: r.cost_usd ?? 0,
    },
  }));
}

/** Where one node's time went (node-timing.ts), as its `node_timings` row. */
export async function writeNodeTiming(ws: Workspace, runId: string, nodeId: string, t: NodeTiming): Promise<void> {
  await ws.append("node_timings", [
    {
      run_id: runId,
      node_id: nodeId,
      node_s: t.nodeS,
      policy_s: t.policyS,
      context_s: t.contextS,
      sandbox_s: t.sandboxS,
      program_s: t.programS,
      scoring_s: t.scoringS,
      store_s: t.storeS,
    },
  ]);
}
