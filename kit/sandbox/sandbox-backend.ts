// Where the programs of a search run (evolve, collectSft's drafts, trainRL's groups, the loop): here (local
// bubblewrap or Docker) or on the Redis queue's workers. One function turns the choice into the
// `evaluate` those calls take, plus the `close` the caller runs when it is done (also on error).
import type { Workspace } from "../store/index.js";
import { SandboxConfigError } from "./errors.js";
import type { Executor } from "./executor.js";
import { createExecutor } from "./make-executor.js";
import type { QueueKeySource } from "./queue-auth.js";
import { SandboxQueueClient, type QueueClientEvent } from "./queue-client.js";
import { runSandbox, type SandboxEvent } from "./run-sandbox.js";
import { SANDBOX_STARTS, type SandboxStart } from "./sandbox-start.js";
import type { ExecutionRecord, SandboxJob } from "./types.js";

/** Runs one program and returns its record: what evolve, collectSft, trainRL and the loop take. */
export type Evaluate = (job: SandboxJob) => Promise<ExecutionRecord>;

/** The backends a search can run its programs on. */
export const SEARCH_BACKENDS = ["local", "docker", "queue"] as const;
export type SearchBackend = (typeof SEARCH_BACKENDS)[number];

export interface SandboxBackendOptions {
  readonly backend: SearchBackend;
  /** queue: the Redis URL (default redis://127.0.0.1:6379). */
  readonly redisUrl?: string;
  /** queue: where the shared queue key comes from (default OPENMLE_QUEUE_KEY). */
  readonly queueKey?: QueueKeySource;
  /** local: cold (default) or warm start (sandbox-start.ts); docker ignores it; queue: the workers' choice. */
  readonly start?: SandboxStart;
  /** docker: the image. */
  readonly dockerImage?: string;
  /**
   * Store records here (each once per idempotency key) and reuse stored ones. Leave it out where other
   * writes to the workspace run concurrently with programs (evolve with several workers writes nodes
   * in transactions of the same connection).
   */
  readonly workspace?: Workspace;
  readonly onWarning?: (message: string) => void;
  readonly onEvent?: (e: SandboxEvent | QueueClientEvent) => void;
}

export interface SandboxBackend {
  readonly name: SearchBackend;
  readonly evaluate: Evaluate;
  /**
   * local, docker: the executor, for callers that pool programs themselves (trainRL's slots); queue:
   * undefined (the workers' slots bound how many programs run at once).
   */
  readonly executor?: Executor;
  /** Disconnects the queue client (a local or Docker backend holds nothing open). */
  close(): Promise<void>;
}

/** The queue client as an `evaluate`: a job goes to the workers as task id + content hash, code, limits. */
export function queueEvaluate(client: SandboxQueueClient): Evaluate {
  return (job) =>
    client.submit({
      task: job.task,
      code: job.code,
      ...(job.limits ? { limits: job.limits } : {}),
      ...(job.priority !== undefined ? { priority: job.priority } : {}),
      ...(job.runId ? { runId: job.runId } : {}),
      ...(job.nodeId ? { nodeId: job.nodeId } : {}),
    });
}

/** A --sandbox-start value, or SandboxConfigError naming the valid ones. */
export function checkSandboxStart(value: string): SandboxStart {
  if (!(SANDBOX_STARTS as readonly string[]).includes(value))
    throw new SandboxConfigError(`Unknown sandbox start "${value}". Valid: ${SANDBOX_STARTS.join(", ")}.`);
  return value as SandboxStart;
}

/**
 * Open the backend a search runs its programs on:
 * - local | docker: `createExecutor(name, { start, dockerImage })`; evaluate = runSandbox on it (with the
 *   workspace when given);
 * - queue: a SandboxQueueClient on `redisUrl` with the queue key and the workspace, so a record is
 *   written once per idempotency key; evaluate = `queueEvaluate(client)`.
 * Records are the same whichever backend runs a program, except the backend name in their key.
 */
export async function openSandboxBackend(o: SandboxBackendOptions): Promise<SandboxBackend> {
  if (!(SEARCH_BACKENDS as readonly string[]).includes(o.backend))
    throw new SandboxConfigError(`Unknown sandbox backend "${o.backend}". Valid: ${SEARCH_BACKENDS.join(", ")}.`);
  const start = checkSandboxStart(o.start ?? "cold");
  if (o.backend === "queue") {
    const client = await SandboxQueueClient.connect(o.redisUrl ?? "redis://127.0.0.1:6379", {
      ...o.queueKey,
      workspace: o.workspace,
      onEvent: o.onEvent,
    });
    return { name: "queue", evaluate: queueEvaluate(client), close: () => client.close() };
  }
  const executor = createExecutor(o.backend, { start, dockerImage: o.dockerImage, onWarning: o.onWarning });
  const ws = o.workspace;
  return {
    name: o.backend,
    executor,
    evaluate: (job) => runSandbox({ ...job, executor, ...(ws ? { workspace: ws } : {}), onEvent: o.onEvent }),
    // The warm start's zygotes would otherwise keep the process alive after the command is done.
    close: async () => executor.close?.(),
  };
}

/** Run `fn` with an open backend and close it afterwards, also when `fn` throws. */
export async function withSandboxBackend<T>(
  o: SandboxBackendOptions,
  fn: (b: SandboxBackend) => Promise<T>,
): Promise<T> {
  const backend = await openSandboxBackend(o);
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}
