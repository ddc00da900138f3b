import type { EvoEvent } from "../../evo/index.js";
import { runBaselines } from "../../eval/index.js";
import type { TaskPackage } from "../../gym/types.js";
import { createCheckpointPolicy, type GrammarParams } from "../../policy/grammar/index.js";
import type { Policy } from "../../policy/types.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import { configHash, type Workspace } from "../../store/index.js";
import { loadCheckpoint, resolvePolicyParams, saveCheckpoint } from "../checkpoints.js";
import { collectSft } from "../sft/collect-sft.js";
import { listDatasets } from "../sft/dataset-store.js";
import { LoopError } from "../errors.js";
import { evaluateHeldout, evolveRun, loadHeldout, type Baselines, type HeldoutRow } from "./heldout-eval.js";
import { LoopConfig, stageSettings, type LoopConfigInput } from "./loop-config.js";
import { markStage, stageResult, type LoopStage } from "./loop-store.js";
import { sftTrain } from "../sft/sft-train.js";
import { trainRL } from "../rl/train-rl.js";

export type LoopEvent =
  | { readonly type: "stage-start"; readonly generation: number; readonly stage: LoopStage }
  | { readonly type: "stage-done"; readonly generation: number; readonly stage: LoopStage; readonly result: unknown }
  | { readonly type: "stage-skipped"; readonly generation: number; readonly stage: LoopStage }
  | { readonly type: "evo"; readonly event: EvoEvent };

export interface LoopOptions {
  readonly workspace: Workspace;
  /** Loop id: a new loop, or an existing one to resume (its stored config and task sets are used). */
  readonly loopId: string;
  readonly trainTasks: readonly TaskPackage[];
  readonly heldoutTasks: readonly TaskPackage[];
  readonly config?: LoopConfigInput;
  /** Runs one program for evolve and collectSft (default: the sandbox, cached in the workspace); trainRL uses its own pool. */
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  readonly onEvent?: (e: LoopEvent) => void;
}

/** One generation's lineage, stored with checkpoint k+1 and returned. */
export interface GenerationRecord {
  readonly generation: number;
  readonly checkpoint: string;
  readonly parent: string;
  readonly trainRuns: readonly string[];
  readonly dataset: string;
  readonly examples: number;
  readonly composition: unknown;
  readonly sftCheckpoint: string;
  readonly rlRun: string;
}

export interface LoopResult {
  readonly loopId: string;
  readonly config: LoopConfig;
  /** checkpoints[k] is generation k's policy ("default" or a name). */
  readonly checkpoints: readonly string[];
  readonly generations: readonly GenerationRecord[];
  readonly heldout: readonly HeldoutRow[];
}

const ids = (ts: readonly TaskPackage[]) => ts.map((t) => t.meta.id);
const policyFor = (params: GrammarParams, checkpoint: string): Policy => createCheckpointPolicy(params, checkpoint);

/**
 * The closed loop (issue 13). Generation k's policy is checkpoint k (k = 0: `config.from`). For k = 0 … G−1:
 * 1. heldout: evolve each held-out task per seed with checkpoint k (equal budget), record scores (loop_heldout);
 * 2. evolve: evolve each training task per seed with checkpoint k;
 * 3. collect: collectSft from those runs (evolutionary path) and fresh drafts of checkpoint k (parallel path);
 * 4. sft: SFT from checkpoint k on that dataset;
 * 5. rl: trainRL from the SFT checkpoint on the training tasks;
 * 6. checkpoint: store checkpoint k+1 (source "loop") with its lineage (parent, runs, dataset, SFT checkpoint, RL run, config hash).
 * Finally 1. for checkpoint G. Every stage is recorded (loop_stages); a loop killed in a stage resumes at that
 * stage (evolve and trainRL runs resume from their own records, finished ones are reused).
 * Refuses overlapping training and held-out task sets.
 */
export async function loop(opts: LoopOptions): Promise<LoopResult> {
  const ws = opts.workspace;
  const emit = opts.onEvent ?? (() => {});
  const train = ids(opts.trainTasks);
  const held = ids(opts.heldoutTasks);
  const overlap = train.filter((t) => held.includes(t));
  if (overlap.length) throw new LoopError(`training and held-out tasks overlap (${overlap.join(", ")}): held-out tasks must be unseen, so remove them from one set`);
  if (!train.length || !held.length) throw new LoopError("the loop needs at least one training task and one held-out task");
  // Start, or resume with the stored config (the task sets must match).
  const stored = (await ws.query<{ config: string; train_tasks: string; heldout_tasks: string }>("SELECT config, train_tasks, heldout_tasks FROM loops WHERE loop_id = $l", { l: opts.loopId }))[0];
  let cfg: LoopConfig;
  if (stored) {
    cfg = LoopConfig.parse(JSON.parse(stored.config));
    const [st, sh] = [JSON.parse(stored.train_tasks) as string[], JSON.parse(stored.heldout_tasks) as string[]];
    if (st.join(",") !== train.join(",") || sh.join(",") !== held.join(",")) {
      throw new LoopError(`loop "${opts.loopId}" was started with training tasks ${st.join(",")} and held-out tasks ${sh.join(",")}: pass the same sets to resume it, or pick a new loop id`);
    }
    await ws.exec("UPDATE loops SET status = 'running', ended_at = NULL WHERE loop_id = $l", { l: opts.loopId });
  } else {
    cfg = LoopConfig.parse(opts.config ?? {});
    await ws.append("loops", [{ loop_id: opts.loopId, train_tasks: JSON.stringify(train), heldout_tasks: JSON.stringify(held), config: JSON.stringify(cfg), config_hash: configHash(cfg), status: "running", started_at: new Date() }]);
  }
  const s = stageSettings(cfg);
  const L = opts.loopId;
  const evoEvent = (event: EvoEvent) => emit({ type: "evo", event });
  const stage = async <T>(generation: number, name: LoopStage, fn: () => Promise<T>): Promise<T> => {
    const done = await stageResult<T>(ws, L, generation, name);
    if (done !== null) {
      emit({ type: "stage-skipped", generation, stage: name });
      return done;
    }
    await markStage(ws, L, generation, name, "running");
    emit({ type: "stage-start", generation, stage: name });
    const result = await fn();
    await markStage(ws, L, generation, name, "done", result);
    emit({ type: "stage-done", generation, stage: name, result });
    return result;
  };

  try {
    const baselines = await stage(-1, "baselines", async () => {
      const out: Baselines = {};
      for (const t of opts.heldoutTasks) {
        if (!cfg.baselines) { out[t.meta.id] = { trivial: null, reference: null }; continue; }
        try {
          const b = await runBaselines(t, { workspace: ws });
          out[t.meta.id] = { trivial: b.trivial, reference: b.reference };
        } catch {
          out[t.meta.id] = { trivial: null, reference: null }; // kit/eval has no baseline programs for this modality
        }
      }
      return out;
    });
    const start = await resolvePolicyParams(cfg.from, ws);
    const checkpoints = [start.checkpoint];
    let params = start.params;
    const generations: GenerationRecord[] = [];
    const heldout = (k: number) => stage(k, "heldout", async () => {
      const rows = await evaluateHeldout({ workspace: ws, loopId: L, generation: k, checkpoint: checkpoints[k]!, policy: policyFor(params, checkpoints[k]!), tasks: opts.heldoutTasks, seeds: cfg.seeds, evolve: s.evolve, baselines, evaluate: opts.evaluate, onEvent: evoEvent });
      return { runs: rows.map((r) => r.runId) };
    });
    for (let k = 0; k < cfg.generations; k++) {
      const ck = checkpoints[k]!;
      await heldout(k);
      // 2.
      const evo = await stage(k, "evolve", async () => {
        const runs: string[] = [];
        for (const task of opts.trainTasks) {
          for (const seed of cfg.seeds) {
            const runId = `${L}-g${k}-${task.meta.id}-s${seed}`;
            await evolveRun(ws, task, runId, policyFor(params, ck), { ...s.evolve, seed }, { evaluate: opts.evaluate, onEvent: evoEvent });
            runs.push(runId);
          }
        }
        return { runs };
      });
      // 3. collectSft stores its dataset atomically: one already there is complete.
      const dataset = `${L}-g${k}`;
      const col = await stage(k, "collect", async () => {
        const have = (await listDatasets(ws)).find((d) => d.dataset === dataset);
        if (have) return { dataset, examples: have.examples, composition: null };
        // Runs without any valid score cannot reach a segment threshold (collectSft refuses them by name).
        const scored: string[] = [];
        for (const r of evo.runs) if ((await ws.query("SELECT 1 FROM nodes WHERE run_id = $r AND status = 'success' LIMIT 1", { r })).length) scored.push(r);
        const r = await collectSft({ workspace: ws, dataset, tasks: opts.trainTasks, teachers: { primary: policyFor(params, ck) }, runs: scored, config: { ...s.collect, seed: k }, evaluate: opts.evaluate });
        return { dataset, examples: r.examples.length, composition: r.composition };
      });
      // 4.
      const sftName = `${L}-g${k + 1}-sft`;
      await stage(k, "sft", async () => {
        const r = await sftTrain(ws, { dataset, from: ck, to: sftName, config: s.sft, replace: true });
        return { checkpoint: sftName, metrics: r.metrics };
      });
      // 5. trainRL resumes its own run after a kill; a finished run's checkpoint is reused.
      const rlRun = `${L}-g${k + 1}-rl`;
      const rl = await stage(k, "rl", async () => {
        const row = (await ws.query<{ status: string }>("SELECT status FROM rl_runs WHERE run_id = $r", { r: rlRun }))[0];
        if (row?.status === "finished") return { runId: rlRun, checkpoint: rlRun };
        const r = await trainRL({ workspace: ws, tasks: opts.trainTasks, from: sftName, to: rlRun, config: { ...s.rl, seed: (s.rl.seed ?? 1) + k }, ...(row ? { resume: rlRun } : { runId: rlRun }) });
        return { runId: r.runId, checkpoint: r.checkpoint };
      });
      // 6.
      const next = `${L}-g${k + 1}`;
      const rec = await stage(k, "checkpoint", async () => {
        const rlCk = await loadCheckpoint(ws, rl.checkpoint);
        const record: GenerationRecord = { generation: k + 1, checkpoint: next, parent: ck, trainRuns: evo.runs, dataset, examples: col.examples, composition: col.composition, sftCheckpoint: sftName, rlRun: rl.runId };
        await saveCheckpoint(ws, { name: next, params: rlCk.params, parent: ck, source: "loop", dataset, config: { loop: L, loopConfigHash: configHash(cfg), stages: s, lineage: record }, metrics: { examples: col.examples } }, { replace: true });
        return record;
      });
      generations.push(rec);
      checkpoints.push(next);
      params = (await loadCheckpoint(ws, next)).params;
    }
    await heldout(cfg.generations);
    await ws.exec("UPDATE loops SET status = 'finished', ended_at = current_timestamp WHERE loop_id = $l", { l: L });
    return { loopId: L, config: cfg, checkpoints, generations, heldout: await loadHeldout(ws, L) };
  } catch (e) {
    await ws.exec("UPDATE loops SET status = 'failed', ended_at = current_timestamp WHERE loop_id = $l", { l: L }).catch(() => {});
    throw e;
  }
}
