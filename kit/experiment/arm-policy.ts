// An arm's policy: resolved at registration to what it is (a params set, a checkpoint's or a file's params hash, an
// endpoint), and built at run time from exactly that, refusing params that changed since.
import { createHash } from "node:crypto";
import { CheckpointNotFoundError, loadCheckpoint, resolvePolicyParams } from "../erl/index.js";
import { createCheckpointPolicy, paramsToJson, type GrammarParams, type Policy } from "../policy/index.js";
import type { Workspace } from "../store/index.js";
import { ExperimentError, PlanDriftError, PlanError } from "./errors.js";
import type { ArmPolicy, PlanArm, ResolvedArm } from "./experiment-plan.js";
import { BUILTIN_PARAM_SETS } from "./experiment-plan.js";
import { checkpointTrainingTasks } from "./training-tasks.js";

/** The content hash of grammar params: sha256 of their JSON (paramsToJson, what loads), first 16 hex digits. */
export const paramsHash = (params: GrammarParams): string =>
  createHash("sha256").update(paramsToJson(params)).digest("hex").slice(0, 16);

/** The name an arm's policy goes by in dev rows and lines: the params set, checkpoint, file hash or endpoint. */
export function policyKey(p: ArmPolicy): string {
  if (p.kind === "params" || p.kind === "checkpoint") return p.name;
  return p.kind === "paramsFile" ? `file:${p.paramsHash}` : `llm:${p.model}@${p.baseUrl}`;
}

/** Registration: the arm's policy resolved, with the tasks it was trained on. */
export async function resolveArm(arm: PlanArm, ws: Workspace, level: "drafts" | "search"): Promise<ResolvedArm> {
  const harness = level === "search" ? (arm.harness ?? "openmle") : null;
  if (arm.params) return { name: arm.name, policy: { kind: "params", name: arm.params }, harness, trainingTasks: [] };
  if (arm.checkpoint !== undefined) {
    if ((BUILTIN_PARAM_SETS as readonly string[]).includes(arm.checkpoint))
      throw new PlanError(
        `arm ${arm.name}: "${arm.checkpoint}" is a built-in params set: write "params": "${arm.checkpoint}"`,
      );
    let ck;
    try {
      ck = await loadCheckpoint(ws, arm.checkpoint);
    } catch (e) {
      if (e instanceof CheckpointNotFoundError) throw new PlanError(`arm ${arm.name}: ${e.message}`, { cause: e });
      throw e;
    }
    return {
      name: arm.name,
      policy: { kind: "checkpoint", name: ck.name, paramsHash: paramsHash(ck.params) },
      harness,
      trainingTasks: await checkpointTrainingTasks(ws, ck.name),
    };
  }
  if (arm.paramsFile !== undefined) {
    if (!arm.paramsFile.endsWith(".json"))
      throw new PlanError(`arm ${arm.name}: params_file ${arm.paramsFile} is not a .json file`);
    const { params, checkpoint: path } = await resolvePolicyParams(arm.paramsFile);
    return {
      name: arm.name,
      policy: { kind: "paramsFile", path, paramsHash: paramsHash(params) },
      harness,
      trainingTasks: "unknown",
    };
  }
  const llm = arm.llm!;
  return {
    name: arm.name,
    policy: { kind: "llm", baseUrl: llm.baseUrl, model: llm.model },
    harness,
    trainingTasks: "unknown",
  };
}

/** How a run gets an LLM arm's policy (the CLI builds the endpoint's model; kit/experiment does not import kit/llm). */
export type LlmPolicyFactory = (endpoint: { readonly baseUrl: string; readonly model: string }) => Policy;

/** Run time: the arm's policy from what registration stored; PlanDriftError when its params changed since. */
export async function armPolicy(arm: ResolvedArm, ws: Workspace, llmPolicy?: LlmPolicyFactory): Promise<Policy> {
  const p = arm.policy;
  if (p.kind === "llm") {
    if (!llmPolicy)
      throw new ExperimentError(
        `arm ${arm.name} is served by ${p.model} at ${p.baseUrl}: run it with openmle experiment run (which builds ` +
          "the endpoint's model), or pass llmPolicy",
      );
    return llmPolicy(p);
  }
  const ref = p.kind === "paramsFile" ? p.path : p.name;
  const { params } = p.kind === "checkpoint" ? await loadCheckpoint(ws, p.name) : await resolvePolicyParams(ref);
  if (p.kind !== "params" && paramsHash(params) !== p.paramsHash)
    throw new PlanDriftError(
      `arm ${arm.name}: the params of ${ref} changed since registration (hash ${p.paramsHash} → ` +
        `${paramsHash(params)}): a changed plan is a new registration (openmle experiment register PLAN)`,
    );
  return createCheckpointPolicy(params, p.kind === "paramsFile" ? `file:${p.paramsHash}` : p.name);
}
