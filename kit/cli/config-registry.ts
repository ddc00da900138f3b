import type { ZodType } from "zod";
import { EvolveConfig } from "../evo/config.js";
import { WorkspaceConfig } from "../store/config.js";
import { LlmConfig } from "../llm/llm-config.js";
import { LlmPolicyConfig } from "../policy/llm/llm-policy-config.js";
import { SandboxConfig } from "../sandbox/config.js";
import { ReportConfig } from "../report/config.js";
import { TaskSpec } from "../gym/task-spec.js";
import { CollectSftConfig, SftTrainConfig } from "../erl/sft/sft-config.js";
import { RlConfig } from "../erl/rl/rl-config.js";
import { LoopConfig } from "../erl/loop/loop-config.js";

/**
 * Every configurable part of the kit, by name. Each schema lives beside the code it
 * configures; this registry only collects them for `openmle config schema`.
 */
export const CONFIG_SCHEMAS = {
  workspace: WorkspaceConfig,
  llm: LlmConfig,
  llmPolicy: LlmPolicyConfig,
  sandbox: SandboxConfig,
  evolve: EvolveConfig,
  collectSft: CollectSftConfig,
  sftTrain: SftTrainConfig,
  rl: RlConfig,
  loop: LoopConfig,
  report: ReportConfig,
  taskSpec: TaskSpec,
} satisfies Record<string, ZodType>;
