import type { ZodType } from "zod";
import { CollectSftConfig, LoopConfig, RlConfig, SftTrainConfig } from "../erl/index.js";
import {
  BuildLeaderboardsConfig,
  NormalizedScoreConfig,
  ReferenceZooConfig,
  WeakReferenceConfig,
} from "../eval/index.js";
import { EvolveConfig } from "../evo/index.js";
import { TaskSpec } from "../gym/index.js";
import { LlmConfig } from "../llm/index.js";
import { LlmPolicyConfig } from "../policy/index.js";
import { ReportConfig } from "../report/index.js";
import { SandboxConfig } from "../sandbox/index.js";
import { WorkspaceConfig } from "../store/index.js";

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
  referenceZoo: ReferenceZooConfig,
  buildLeaderboards: BuildLeaderboardsConfig,
  normalizedScore: NormalizedScoreConfig,
  weakReference: WeakReferenceConfig,
} satisfies Record<string, ZodType>;
