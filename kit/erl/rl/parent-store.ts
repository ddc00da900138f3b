import type { NodeView, Operator } from "../../policy/types.js";
import type { Rng } from "../../util/rng.js";
import { drawParents, keepTop, type ParentStats } from "./parent-fitness.js";

/** One stored program of a task: its reward, its children's rewards, how often it was a parent. */
export interface ParentState extends ParentStats {
  readonly id: string;
  readonly view: NodeView;
  /**
   * Its graded test score (raw; null: failed, flagged or unknown), for its children's parent bonus. Kept out of
   * `view`: the policy never sees test scores.
   */
  testScore: number | null;
  childRewards: number[];
  visits: number;
}

export interface ParentPick {
  /** The operator actually used: improve/debug/crossover fall back to draft without eligible parents. */
  readonly operator: Operator;
  readonly parents: readonly ParentState[];
}

/**
 * The RL parent-state store (docs/paper-map.md: RL mechanisms): per task, the top `keep` programs by parentFitness.
 * Parents are drawn ∝ fitness (improve/crossover from reward > 0, debug from reward ≤ 0) and each
 * draw counts a visit; a consumed group adds its distinct programs and gives each parent its children's rewards.
 */
export class ParentStore {
  private readonly byTask = new Map<string, ParentState[]>();

  constructor(private readonly keep = 10) {}

  states(taskId: string): readonly ParentState[] {
    return this.byTask.get(taskId) ?? [];
  }

  /** Add programs (seeds or a group's rollouts), skip codes already stored, keep the top `keep`. */
  add(
    taskId: string,
    programs: readonly { id: string; view: NodeView; reward: number; testScore?: number | null }[],
  ): void {
    const cur = [...this.states(taskId)];
    const codes = new Set(cur.map((s) => s.view.code));
    for (const p of programs) {
      if (codes.has(p.view.code)) continue;
      codes.add(p.view.code);
      cur.push({
        id: p.id,
        view: p.view,
        reward: p.reward,
        testScore: p.testScore ?? null,
        childRewards: [],
        visits: 0,
      });
    }
    this.byTask.set(taskId, keepTop(cur, this.keep));
  }

  /** Choose parents for `operator` and count the visits. */
  pick(taskId: string, operator: Operator, rng: Rng): ParentPick {
    if (operator === "draft") return { operator, parents: [] };
    const n = operator === "crossover" ? 2 : 1;
    const parents = drawParents(this.states(taskId), operator, n, rng);
    if (parents.length < n) return { operator: "draft", parents: [] };
    for (const p of parents) p.visits++;
    return { operator, parents };
  }

  /** Record a consumed group's rewards as children of its parents (still stored ones). */
  recordChildren(taskId: string, parentIds: readonly string[], rewards: readonly number[]): void {
    for (const s of this.states(taskId)) if (parentIds.includes(s.id)) s.childRewards.push(...rewards);
  }

  /** Fill the graded test scores of stored states from `scores` (state id → score), e.g. on resume. */
  setTestScores(taskId: string, scores: ReadonlyMap<string, number | null>): void {
    for (const s of this.states(taskId)) if (scores.has(s.id)) s.testScore = scores.get(s.id) ?? null;
  }

  /** Rows of rl_parent_states (the test score is not a column: a resume reads it back, rl-store.ts). */
  toRows(runId: string): Record<string, unknown>[] {
    return [...this.byTask.entries()].flatMap(([taskId, states]) =>
      states.map((s) => ({
        run_id: runId,
        task_id: taskId,
        state_id: s.id,
        reward: s.reward,
        visits: s.visits,
        child_rewards: JSON.stringify(s.childRewards),
        view: JSON.stringify(s.view),
      })),
    );
  }

  static fromRows(
    rows: readonly {
      task_id: string;
      state_id: string;
      reward: number;
      visits: number;
      child_rewards: string;
      view: string;
      test_score?: number | null;
    }[],
    keep = 10,
  ): ParentStore {
    const store = new ParentStore(keep);
    for (const r of rows) {
      const list = store.byTask.get(r.task_id) ?? [];
      list.push({
        id: r.state_id,
        reward: r.reward,
        visits: r.visits,
        testScore: r.test_score ?? null,
        childRewards: JSON.parse(r.child_rewards) as number[],
        view: JSON.parse(r.view) as NodeView,
      });
      store.byTask.set(r.task_id, list);
    }
    return store;
  }
}
