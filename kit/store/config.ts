import { z } from "zod";

/** How a workspace is opened. */
export const WorkspaceConfig = z.object({
  /** Folder holding the workspace database (created when new and empty). */
  workspace: z
    .string()
    .default("workspaces/default")
    .describe("Folder holding the workspace database (created when new and empty)."),
  /** Open without the writer lock; writes are refused. */
  readOnly: z.boolean().default(false).describe("Open without the writer lock; writes are refused."),
});
export type WorkspaceConfig = z.infer<typeof WorkspaceConfig>;
