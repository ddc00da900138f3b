import { runHasSuccess, type EvoEvent } from "../../evo/index.js";
import type { TaskPackage } from "../../gym/types.js";
import { createCheckpointPolicy, type GrammarParams } from "../../policy/grammar/index.js";
import type { Policy } from "../../policy/types.js";
import { runSandbox, type ExecutionRecord, type Executor, type SandboxJob } from "../../sandbox/index.js";
import { configHash, readRun, type Workspace } from "../../store/index.js";
import { loadCheckpoint, saveCheckpoint } from "../checkpoints.js";
import { trainRL } from "../rl/train-rl.js";
import { collectSft } from "../sft/collect-sft.js";
import { listDatasets } from "../sft/dataset-store.js";
import { sftTrain } from "../sft/sft-train.js";
import { evolveRun } from "./heldout-eval.js";
import type { EffectiveStageSettings, LoopConfig } from "./loop-config.js";
import type { GenerationRecord } from "./loop.js";
import type { RunStage } from "./stage-runner.js";

/** What every stage of one loop shares. */
export interface LoopRun {
  readonly ws: Workspace;
  readonly loopId: string;
  readonly cfg: LoopConfig;
  readonly settings: EffectiveStageSettings;
  readonly trainTasks: readonly TaskPackage[];
  /** Ids of the held-out tasks: no evolve run of the loop reads priors from them. */
  readonly heldoutIds: readonly string[];
  /** The teacher (LoopConfig.teacher, resolved), when the loop has one. */
  readonly teacher: { readonly checkpoint: string; readonly params: GrammarParams } | null;
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  /** Without `evaluate`: the executor every stage's programs run on (LoopOptions.executor). */
  readonly executor?: Executor;
  readonly evoEvent: (e: EvoEvent) => void;
  readonly stage: RunStage;
  readonly now: () => number;
}

/** The evaluate of the loop's evolve runs: the loop's, else runSandbox on its executor, else evolve's default. */
export function evolveEvaluate(run: LoopRun): ((job: SandboxJob) => Promise<ExecutionRecord>) | undefined {
  const executor = run.executor;
  return run.evaluate ?? (executor ? (job) => runSandbox({ ...job, executor }) : undefined);
}

/** The evaluate of the loop's single programs (collectSft's and the held-out drafts): records in the workspace. */
export function draftEvaluate(run: LoopRun, ws: Workspace): (job: SandboxJob) => Promise<ExecutionRecord> {
  return (
    run.evaluate ??
    ((job) => runSandbox({ ...job, workspace: ws, ...(run.executor ? { executor: run.executor } : {}) }))
  );
}

/** Generation k's policy: the grammar policy with checkpoint k's params, named after the checkpoint. */
export const policyFor = (params: GrammarParams, checkpoint: string): Policy =>
  createCheckpointPolicy(params, checkpoint);

/** Who writes generation k's SFT data: the loop's teacher for its first teacherGenerations generations, else k. */
export function teacherOf(
  run: LoopRun,
  k: number,
  ck: string,
  params: GrammarParams,
): { readonly checkpoint: string; readonly policy: Policy } {
  const t = run.teacher && k < run.cfg.teacherGenerations ? run.teacher : { checkpoint: ck, params };
  return { checkpoint: t.checkpoint, policy: policyFor(t.params, t.checkpoint) };
}

/**
 * Stages 2–6 of generation k (policy: checkpoint `ck` with `params`), each run once (stage-runner.ts):
 * 2. the teacher (`teacherOf`: the loop's teacher, else checkpoint k) evolves every training task per seed;
 * 3. collectSft from those runs and the teacher's fresh drafts; 4. SFT from checkpoint k on that data;
 * 5. trainRL from the SFT checkpoint; 6. checkpoint k+1 with its lineage.
 */
export async function trainGeneration(
  run: LoopRun,
  k: number,
  ck: string,
  params: GrammarParams,
): Promise<GenerationRecord> {
  const { ws, loopId: L, cfg, settings: s, stage } = run;
  const teacher = teacherOf(run, k, ck, params);
  // 2.
  const evo = await stage(k, "evolve", async () => {
    const runs: string[] = [];
    for (const task of run.trainTasks) {
      for (const seed of s.seeds) {
        const runId = `${L}-g${k}-${task.meta.id}-s${seed}`;
        await evolveRun(
          ws,
          task,
          runId,
          teacher.policy,
          { ...s.evolve, seed, priorsExcludeTasks: [...run.heldoutIds] },
          { evaluate: evolveEvaluate(run), onEvent: run.evoEvent },
        );
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
    for (const r of evo.runs) if (await runHasSuccess(ws, r)) scored.push(r);
    const r = await collectSft({
      workspace: ws,
      dataset,
      tasks: run.trainTasks,
      teachers: { primary: teacher.policy },
      runs: scored,
      config: { ...s.collect, seed: k },
      evaluate: draftEvaluate(run, ws),
    });
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
    const row = await readRun(ws, "rl_runs", rlRun);
    if (row?.status === "finished") return { runId: rlRun, checkpoint: rlRun };
    const r = await trainRL({
      workspace: ws,
      tasks: run.trainTasks,
      from: sftName,
      to: rlRun,
      config: { ...s.rl, seed: (s.rl.seed ?? 1) + k },
      now: run.now,
      ...(run.evaluate ? { execute: run.evaluate } : { executor: run.executor }),
      ...(row ? { resume: rlRun } : { runId: rlRun }),
    });
    return { runId: r.runId, checkpoint: r.checkpoint };
  });
  // 6.
  const next = `${L}-g${k + 1}`;
  return stage(k, "checkpoint", async () => {
    const rlCk = await loadCheckpoint(ws, rl.checkpoint);
    const record: GenerationRecord = {
      generation: k + 1,
      checkpoint: next,
      parent: ck,
      teacher: teacher.checkpoint,
      trainRuns: evo.runs,
      dataset,
      examples: col.examples,
      composition: col.composition,
      sftCheckpoint: sftName,
      rlRun: rl.runId,
    };
    await saveCheckpoint(
      ws,
      {
        name: next,
        params: rlCk.params,
        parent: ck,
        source: "loop",
        dataset,
        config: { loop: L, loopConfigHash: configHash(cfg), stages: s, lineage: record },
        metrics: { examples: col.examples },
      },
      { replace: true },
    );
    return record;
  });
}
