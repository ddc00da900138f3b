import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { writeReport } from "../report/index.js";
import { output, UsageError } from "./run-cli.js";

export function registerReport(program: Command): void {
  program
    .command("report")
    .description("Write a self-contained HTML report (plotly inlined) and PNGs of a workspace")
    .requiredOption("--workspace <dir>", "the workspace folder")
    .requiredOption("--out <dir>", "output folder, e.g. reports/<name>")
    .option("--title <text>", "report title", "OpenMLE report")
    .option("--baselines <json>", "baseline scores per task for the normalised score")
    .option("--no-png", "skip the PNGs (no Chromium needed)")
    .option("--json", "print the written paths as JSON")
    .action(async (o: { workspace: string; out: string; title: string; baselines?: string; png: boolean; json?: boolean }) => {
      let baselines: Record<string, { trivial: number; reference: number }> | undefined;
      if (o.baselines) {
        try {
          baselines = JSON.parse(readFileSync(o.baselines, "utf8")) as typeof baselines;
        } catch (e) {
          throw new UsageError(`report: cannot read baselines ${o.baselines} (${(e as Error).message})`);
        }
      }
      const r = await writeReport(o.workspace, o.out, { title: o.title, png: o.png, baselines });
      const notDrawn = r.figures.filter((f) => o.png && !f.drawn).map((f) => f.id);
      output(!!o.json, { html: r.html, summary: r.summary, pngs: r.pngs, figures: r.figures.length, not_drawn: notDrawn }, () =>
        [`wrote ${r.html}`, `wrote ${r.summary}`, ...(o.png ? [`${r.pngs.length} PNGs under ${o.out}/png`] : []), ...(notDrawn.length ? [`not drawn: ${notDrawn.join(", ")}`] : [])].join("\n"),
      );
      if (notDrawn.length) process.exitCode = 1;
    });
}
