import { z } from "zod";

/** Options of `writeReport` / `openmle report`. */
export const ReportConfig = z.object({
  title: z.string().default("OpenMLE report").describe("Report title (page heading)."),
  png: z.boolean().default(true).describe("Render one PNG per figure with headless Chromium."),
  maxTrees: z.number().int().min(0).default(4).describe("How many runs get a search-tree figure."),
  temperature: z.number().positive().default(1).describe("Softmax temperature T of the selection-probability figure."),
  chromiumPath: z.string().default("/usr/bin/chromium").describe("Chromium executable driven by playwright-core."),
});
export type ReportConfig = z.infer<typeof ReportConfig>;
