// The shape of one attempt of the adversarial suite: what it tries, and what it observed. Attempt
// modules (attempts/*.ts) and the runner import it; the registry lists the modules.
import type { TaskMeta, TaskPackage } from "../../kit/gym/index.js";
import type { Executor } from "../../kit/sandbox/index.js";

export interface AttemptContext {
  /** The fixture task (kit/sandbox/test-fixtures/tiny-task) and its metadata. */
  readonly task: TaskPackage;
  readonly meta: TaskMeta;
  /** A scratch folder removed after the run. */
  readonly dir: string;
  /** Port of a 127.0.0.1 listener that counts connections (nothing may reach it). */
  readonly canaryPort: number;
  canaryConnections(): number;
  /** A redis:// URL on 127.0.0.1 when redis-server could be started, else null. */
  readonly redisUrl: string | null;
}

export interface Outcome {
  readonly held: boolean;
  /** What was observed, in a few words. */
  readonly detail: string;
}

export interface Attempt {
  /** Short id, unique within its group. */
  readonly id: string;
  /** Where it comes from, e.g. "issue 10.1" or "issue 4 (security.test.ts)". */
  readonly source: string;
  /** What it tries. */
  readonly what: string;
  /**
   * Sandbox attempts run once per executor (local, and docker where an engine runs); the rest
   * (scorer, queue, keys, CLI, ...) run once with executor null.
   */
  readonly perExecutor: boolean;
  run(ctx: AttemptContext, executor: Executor | null): Promise<Outcome>;
}
