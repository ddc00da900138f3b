import type { ZodType } from "zod";
import { WorkspaceConfig } from "../store/config.js";

/**
 * Every configurable part of the kit, by name. Each schema lives beside the code it
 * configures; this registry only collects them for `openmle config schema`.
 */
export const CONFIG_SCHEMAS = {
  workspace: WorkspaceConfig,
} satisfies Record<string, ZodType>;
