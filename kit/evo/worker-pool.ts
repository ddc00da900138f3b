import type { Action, EvoNode } from "./types.js";

/** A section that runs one at a time (the store's reads for a context, a node's writes), in call order. */
export type Locked = <T>(fn: () => Promise<T>) => Promise<T>;

/** A serialised section: each call runs once the previous one settled (a failure does not block the next). */
export function serialised(): Locked {
  let serial: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const p = serial.then(fn);
    serial = p.catch(() => {});
    return p;
  };
}

/** The steps still to do: gaps left by a kill (in-flight jobs), then the rest, in order. */
export function stepsToDo(nodes: readonly EvoNode[], steps: number): number[] {
  const done = new Set(nodes.map((n) => n.step));
  const todo: number[] = [];
  for (let s = 0; s < steps; s++) if (!done.has(s)) todo.push(s);
  return todo;
}

export interface WorkerPoolSpec<R extends { readonly node: EvoNode }> {
  readonly workers: number;
  /** The steps to do, taken from the front (emptied when a worker fails). */
  readonly todo: number[];
  /** The run's nodes: each made node is added, kept in step order. */
  readonly nodes: EvoNode[];
  /** The run's clock: a step's start is read before it is planned. */
  readonly now: () => number;
  /** False once a budget is spent (checked before each step). */
  readonly budgetLeft: () => boolean;
  /** The step's action from the lane's last node and the actions in flight; null = wait for the next node. */
  readonly plan: (step: number, last: EvoNode | null, inFlight: Action[]) => Action | null;
  /** Makes the step's node (node-step.ts). */
  readonly run: (step: number, action: Action, stepStart: number) => Promise<R>;
  /** Called once the node is in `nodes`, before the worker takes its next step. */
  readonly onNode: (step: number, action: Action, made: R) => void;
}

/**
 * Evo-Max steady state: `workers` lanes each take the next step, plan it and make its node; a lane starts
 * from the run's last nodes (one per lane) on resume. A harness that must wait for an outcome still in
 * flight (MCTS selection) puts its step back and sleeps until the next node is written. The first failure
 * empties `todo`, so the other lanes end after their current step; it is returned (null when none).
 */
export async function runWorkers<R extends { readonly node: EvoNode }>(p: WorkerPoolSpec<R>): Promise<unknown> {
  const { nodes, todo } = p;
  const lanes: (EvoNode | null)[] = Array.from(
    { length: p.workers },
    (_, i) => nodes[nodes.length - p.workers + i] ?? null,
  );
  const pending = new Map<number, Action>();
  let wake = () => {};
  let nodeWritten = new Promise<void>((r) => (wake = r));
  const notify = () => {
    wake();
    nodeWritten = new Promise<void>((r) => (wake = r));
  };

  const worker = async (lane: number) => {
    while (todo.length && p.budgetLeft()) {
      const step = todo.shift()!;
      const stepStart = p.now();
      const action = p.plan(step, lanes[lane] ?? null, [...pending.values()]);
      if (!action) {
        todo.unshift(step);
        await nodeWritten;
        continue;
      }
      pending.set(step, action);
      const made = await p.run(step, action, stepStart);
      nodes.push(made.node);
      nodes.sort((a, b) => a.step - b.step);
      pending.delete(step);
      lanes[lane] = made.node;
      notify();
      p.onNode(step, action, made);
    }
  };

  let failed: unknown = null;
  await Promise.all(
    Array.from({ length: p.workers }, (_, i) =>
      worker(i).catch((e) => {
        failed ??= e;
        todo.length = 0;
        notify();
      }),
    ),
  );
  return failed;
}
