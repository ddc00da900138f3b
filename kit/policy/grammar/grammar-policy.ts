import type { TaskPackage } from "../../gym/types.js";
import type { Rng } from "../../util/rng.js";
import type { Choice, NodeView, Operator, OperatorContext, Policy, PolicyOutput } from "../types.js";
import { Chooser, GrammarReplayError, type TraceStep } from "./chooser.js";
import { crossoverSpecs } from "./crossover.js";
import { decisionFeatures } from "./decision-features.js";
import { contextEvidence } from "./context-evidence.js";
import { classifyFailure, debugSpec, missingModule } from "./debug.js";
import { defaultGrammarParams } from "./default-params.js";
import { describeSpec } from "./describe-spec.js";
import { draftSpec } from "./draft.js";
import { improveSpec } from "./improve.js";
import type { GrammarChoice, GrammarParams } from "./params.js";
import { renderProgram, traceFromProgram } from "./render-program.js";
import { isSolutionSpec, type SolutionSpec } from "./spec.js";
import { taskShape, type TaskShape } from "./task-shape.js";
import { configHash } from "../../store/index.js";

/** What the grammar policy returns: PolicyOutput with the spec and its decisions always set. */
export interface GrammarOutput extends PolicyOutput {
  readonly code: string;
  readonly spec: SolutionSpec;
  readonly choices: readonly GrammarChoice[];
  readonly logProb: number;
}

const specOf = (v: NodeView | undefined, shape: TaskShape): SolutionSpec | null =>
  v && isSolutionSpec(v.spec) && v.spec.modality === shape.modality ? v.spec : null;

/** Modules earlier failures could not import: drafts avoid the families that need them. */
function modulesToAvoid(context: OperatorContext): string[] {
  const out = new Set<string>();
  for (const f of [...(context.failures ?? []), ...context.parents]) {
    if (f.status !== "success" && classifyFailure(f) === "import_error") {
      const m = missingModule(`${f.traceback ?? ""}\n${f.stdoutTail ?? ""}`);
      if (m) out.add(m);
    }
  }
  return [...out];
}

/** Run one operator with a chooser (sampling or replaying): the spec plus notes for the plan. */
export function runGrammarOperator(
  ch: Chooser,
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
): { spec: SolutionSpec; notes: string[] } {
  const shape = taskShape(task);
  const avoid = modulesToAvoid(context);
  const [p0, p1] = context.parents;
  const draft = (why: string) => ({ spec: draftSpec(ch, shape, avoid), notes: [why] });
  switch (operator) {
    case "draft": {
      const treated =
        shape.originalModality !== shape.modality
          ? ` (task modality ${shape.originalModality}, treated as tabular)`
          : "";
      return draft(
        `draft a ${shape.modality} ${shape.taskType} solution${treated}` +
          `${avoid.length ? `, avoiding ${avoid.join(", ")}` : ""}`,
      );
    }
    case "improve": {
      const parent = specOf(p0, shape);
      if (!parent) return draft("improve: the parent has no grammar spec, so write a fresh draft");
      if (p0!.status !== "success") {
        const r = debugSpec(ch, parent, shape, p0!);
        return {
          spec: r.spec,
          notes: [`improve ${p0!.nodeId}: it failed (${p0!.status}), so repair it first: ${r.notes.join("; ")}`],
        };
      }
      const r = improveSpec(ch, parent, shape, p0!, task.meta.higherIsBetter);
      return {
        spec: r.spec,
        notes: [`improve ${p0!.nodeId} (validation ${p0!.validScore ?? "n/a"}): ${r.notes.join("; ")}`],
      };
    }
    case "debug": {
      if (!p0) return draft("debug: no parent given, so write a fresh draft");
      const r = debugSpec(ch, specOf(p0, shape), shape, p0);
      return {
        spec: r.spec,
        notes: [
          `debug ${p0.nodeId} (${p0.status}${p0.errorSignature ? `, ${p0.errorSignature}` : ""}): ` +
            `${r.notes.join("; ")}`,
        ],
      };
    }
    case "crossover": {
      const a = specOf(p0, shape);
      const b = specOf(p1, shape);
      if (a && b) {
        const sa = p0!.validScore ?? -Infinity * (task.meta.higherIsBetter ? 1 : -1);
        const sb = p1!.validScore ?? -Infinity * (task.meta.higherIsBetter ? 1 : -1);
        const aBetter = task.meta.higherIsBetter ? sa >= sb : sa <= sb;
        const r = aBetter ? crossoverSpecs(ch, a, b) : crossoverSpecs(ch, b, a);
        return {
          spec: r.spec,
          notes: [
            `combine ${p0!.nodeId} and ${p1!.nodeId} (better: ${aBetter ? p0!.nodeId : p1!.nodeId}): ` +
              `${r.notes.join("; ")}`,
          ],
        };
      }
      const one = a ?? b;
      const view = a ? p0! : p1;
      if (one && view) {
        const r = improveSpec(ch, one, shape, view, task.meta.higherIsBetter);
        return {
          spec: r.spec,
          notes: [`crossover: only ${view.nodeId} has a grammar spec, so improve it: ${r.notes.join("; ")}`],
        };
      }
      return draft("crossover: no parent has a grammar spec, so write a fresh draft");
    }
  }
}

/** The models of a spec as a plan's idea names them: `hist_gb + xgboost (average)`. */
export function modelList(spec: SolutionSpec): string {
  return spec.models.map((m) => m.family).join(" + ") + (spec.models.length > 1 ? ` (${spec.ensemble})` : "");
}

/** The grammar policy: a Policy whose outputs always carry spec, choices and logProb. */
export interface GrammarPolicy extends Policy {
  readonly params: GrammarParams;
  propose(task: TaskPackage, operator: Operator, context: OperatorContext, rng: Rng): Promise<GrammarOutput>;
}

/**
 * The grammar policy's name: "grammar" with the default params, "grammar@<params hash>" for any other
 * checkpoint, so evaluation never pools runs of different checkpoints as repeats.
 */
export function grammarPolicyName(params: GrammarParams): string {
  const h = configHash(params);
  return h === configHash(defaultGrammarParams()) ? "grammar" : `grammar@${h.slice(0, 8)}`;
}

/**
 * The grammar policy under the name of the checkpoint its params came from: "grammar:<checkpoint>" (the
 * reference users pass to --params / --teacher / a loop), plain "grammar" for the default params, and
 * without a checkpoint name the anonymous "grammar@<params hash>" of createGrammarPolicy.
 */
export function createCheckpointPolicy(params: GrammarParams, checkpoint?: string): GrammarPolicy {
  const p = createGrammarPolicy(params);
  return !checkpoint || checkpoint === "default" ? p : { ...p, name: `grammar:${checkpoint}` };
}

/** The grammar policy: deterministic given the Rng, every decision recorded. */
export function createGrammarPolicy(params: GrammarParams = defaultGrammarParams()): GrammarPolicy {
  return {
    name: grammarPolicyName(params),
    params,
    async propose(task, operator, context, rng) {
      const ch = Chooser.sampling(
        params,
        `${operator}.${taskShape(task).modality}`,
        rng,
        decisionFeatures(task, operator, context),
        contextEvidence(context, task.meta.higherIsBetter),
      );
      const { spec, notes } = runGrammarOperator(ch, task, operator, context);
      const plan = `${modelList(spec)} | ${notes.join("\n")}\n${describeSpec(spec)}`;
      const code = renderProgram(spec, task, { plan, trace: ch.choices });
      return { plan, code, spec, choices: ch.choices, logProb: ch.logProb };
    },
  };
}

/**
 * log g_θ(program | task, operator, context): replay the program's recorded decisions through the
 * same operator under `params`. Throws GrammarReplayError when the program carries no trace or the
 * trace does not fit this task/operator/context; a value outside the offered options gives -Infinity.
 */
export function logProb(
  params: GrammarParams,
  program: string | { readonly choices: readonly Choice[] },
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
): number {
  return replayChoices(params, program, task, operator, context).reduce((s, c) => s + c.logProb, 0);
}

/**
 * The decisions of a recorded program replayed under `params` (value, options, decision features
 * and log-probability of each): what SFT/RL need to take gradient steps on stored programs.
 */
export function replayChoices(
  params: GrammarParams,
  program: string | readonly TraceStep[] | { readonly choices: readonly Choice[] },
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
): GrammarChoice[] {
  const trace: TraceStep[] | null =
    typeof program === "string"
      ? traceFromProgram(program)
      : Array.isArray(program)
        ? [...(program as readonly TraceStep[])]
        : (program as { readonly choices: readonly Choice[] }).choices.map((c) => ({
            name: c.name,
            value: String(c.value),
          }));
  if (!trace)
    throw new GrammarReplayError(
      "the program has no '# grammar-trace:' line: only programs written by the grammar policy can be scored",
    );
  const ch = Chooser.replay(
    params,
    `${operator}.${taskShape(task).modality}`,
    trace,
    decisionFeatures(task, operator, context),
    contextEvidence(context, task.meta.higherIsBetter),
  );
  runGrammarOperator(ch, task, operator, context);
  if (!ch.exhausted)
    throw new GrammarReplayError(
      `the trace has ${trace.length} steps but the operator used ${ch.choices.length}: it was ` +
        `recorded for another context`,
    );
  return ch.choices;
}
