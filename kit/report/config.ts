import { CHROMIUM_PATH } from "./chromium.js";
import { z } from "zod";

/** Options of `writeReport` / `openmle report`. */
export const ReportConfig = z
  .object({
    title: z.string().default("OpenMLE report").describe("Report title (page heading)."),
    run: z.string().optional().describe("Report on this run only (default: every run of the workspace)."),
    png: z
      .boolean()
      .default(true)
      .describe("Draw the figures in headless Chromium and export each as PNG (2×) and SVG."),
    maxTrees: z
      .number()
      .int()
      .min(0)
      .default(4)
      .describe("How many runs are shown in full (result, code, tree, selection)."),
    step: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "Step at which the parent-selection distribution is shown (default: the last step that sampled parents).",
      ),
    temperature: z
      .number()
      .positive()
      .default(1)
      .describe("Softmax temperature T of notebook selection-probability figures (selectionProbabilitiesFigure)."),
    gapThreshold: z
      .number()
      .positive()
      .default(0.1)
      .describe(
        "A champion's validation–test gap is flagged as large above this share of its scale (validation-gap.ts).",
      ),
    chromiumPath: z
      .string()
      .default(CHROMIUM_PATH)
      .describe("Chromium executable driven by playwright-core (default: OPENMLE_CHROMIUM, else /usr/bin/chromium)."),
  })
  .strict();
export type ReportConfig = z.infer<typeof ReportConfig>;
