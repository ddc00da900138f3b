import type { TaskPackage } from "../../gym/types.js";
import type { GrammarParams } from "../../policy/grammar/index.js";
import { OPERATORS } from "../../policy/types.js";
import type { Workspace } from "../../store/index.js";
import { createRng, sampleIndex } from "../../util/rng.js";
import { saveCheckpoint } from "../checkpoints.js";
import type { GroupSource } from "./group-scheduler.js";
import type { RlStart } from "./open-rl-run.js";
import type { ParentStore } from "./parent-store.js";
import type { RlConfig } from "./rl-config.js";
import { consumeBatch, stepMetrics, type RlStepMetrics, type TaskRewardInfo } from "./rl-step.js";
import { writeStep } from "./rl-store.js";
import { runGroup, type GroupResult, type GroupRunner, type GroupSpec } from "./rollout-group.js";
import type { RlEvent } from "./train-rl.js";

const groupRng = (seed: number, serial: number) => createRng((seed ^ Math.imul(serial + 1, 0x85ebca6b)) >>> 0);

export interface TrainerSetup {
  readonly ws: Workspace;
  readonly tasks: readonly TaskPackage[];
  /** Per task: direction, ranges and the run's static bounds (task-scales.ts rewardInfoOf). */
  readonly info: ReadonlyMap<string, TaskRewardInfo>;
  /** The start params' name (a step-1 checkpoint's parent) and the final checkpoint's name. */
  readonly from: string;
  readonly to: string;
  readonly runner: GroupRunner;
  /** The run's start time (group times are stored relative to it). */
  readonly t0: number;
  readonly now: () => number;
  readonly emit: (e: RlEvent) => void;
}

/**
 * The learner of one trainRL run: its params and version, the parent store, reward history and
 * per-task counts. Plans groups (step 2), starts them (step 3) and makes one update per batch (step 4).
 */
export class RlTrainer implements GroupSource {
  params: GrammarParams;
  version: number;
  readonly steps: RlStepMetrics[] = [];
  readonly cfg: RlConfig;
  readonly store: ParentStore;
  readonly perTask: Map<string, number>;
  private serial: number;
  private readonly history: Map<string, number[]>;
  private readonly inFlight = new Map<string, number>();
  private readonly info: ReadonlyMap<string, TaskRewardInfo>;
  private readonly mix: number[];
  private lastStepAt: number;

  constructor(
    start: RlStart,
    private readonly s: TrainerSetup,
  ) {
    ({ cfg: this.cfg, params: this.params, version: this.version, serial: this.serial } = start);
    ({ store: this.store, history: this.history, perTask: this.perTask } = start);
    this.info = s.info;
    this.mix = OPERATORS.map((o) => this.cfg.operatorMix[o]);
    this.lastStepAt = s.t0;
  }

  /** 2. One group with the current params: the least-sampled task, an operator, parents ∝ fitness. */
  plan(): GroupSpec {
    const { cfg, perTask, inFlight } = this;
    const rng = groupRng(cfg.seed, this.serial);
    const load = (id: string) => (perTask.get(id) ?? 0) + (inFlight.get(id) ?? 0);
    const task = [...this.s.tasks].sort((a, b) => load(a.meta.id) - load(b.meta.id))[0]!;
    const pick = this.store.pick(task.meta.id, OPERATORS[sampleIndex(rng, this.mix)]!, rng);
    inFlight.set(task.meta.id, (inFlight.get(task.meta.id) ?? 0) + 1);
    return {
      groupId: `g${String(this.serial++).padStart(5, "0")}`,
      task,
      operator: pick.operator,
      parents: pick.parents.map((p) => p.view),
      parentTestScores: pick.parents.map((p) => p.testScore),
      params: this.params,
      version: this.version,
      size: cfg.group,
      rng: rng.fork(),
    };
  }

  /** 3. Plans a group and starts generating and executing it. */
  start(): { groupId: string; done: Promise<GroupResult> } {
    const spec = this.plan();
    const done = runGroup(spec, this.s.runner).then((g) => {
      this.inFlight.set(g.task.meta.id, this.inFlight.get(g.task.meta.id)! - 1);
      this.s.emit({
        type: "group",
        groupId: g.groupId,
        taskId: g.task.meta.id,
        operator: g.operator,
        version: g.version,
        wallS: (g.endedMs - g.startedMs) / 1000,
      });
      return g;
    });
    return { groupId: spec.groupId, done };
  }

  dropped(group: GroupResult, lag: number): void {
    this.s.emit({ type: "group-dropped", groupId: group.groupId, lag });
  }

  /** 4. One update from a batch: rewards → advantages → GSPO; its checkpoint, then the step atomically. */
  async consume(batch: GroupResult[], dropped: GroupResult[]): Promise<void> {
    const { ws, to, now } = this.s;
    const out = consumeBatch(batch, this.params, {
      history: this.history,
      store: this.store,
      info: this.info,
      cfg: this.cfg,
      perTask: this.perTask,
    });
    this.params = out.params;
    const version = ++this.version;
    const m = stepMetrics(
      version,
      version - 1,
      out.scored,
      dropped.length,
      out.gspo,
      (now() - this.lastStepAt) / 1000,
      this.perTask,
    );
    this.lastStepAt = now();
    const checkpoint = `${to}-step${version}`;
    await saveCheckpoint(
      ws,
      {
        name: checkpoint,
        params: this.params,
        parent: version === 1 ? this.s.from : `${to}-step${version - 1}`,
        source: "rl",
        dataset: this.s.runner.runId,
        config: this.cfg,
        metrics: { ...m },
      },
      { replace: true },
    );
    await writeStep(ws, this.s.runner.runId, this.s.t0, m, checkpoint, out.scored, dropped, this.store);
    this.steps.push(m);
    this.s.emit({ type: "step", metrics: m, checkpoint });
  }
}
