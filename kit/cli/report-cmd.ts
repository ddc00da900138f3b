import type { Command } from "commander";
import { EVOLVE_MAX } from "../evo/index.js";
import { writeReport } from "../report/index.js";
import { intFlag } from "./numeric-flag.js";
import { openWorkspace } from "../store/index.js";
import { readFileFlag } from "./path-flag.js";
import { resolveRunFlag } from "./run-flag.js";
import { output, UsageError } from "./run-cli.js";

const BASELINES_FILE =
  'Pass a JSON file {"<task_id>": {"trivial": x, "reference": y}} (openmle evaluate --save-baselines).';

export function registerReport(program: Command): void {
  program
    .command("report")
    .description(
      "Write a self-contained HTML report of a workspace or a run: the result, the champion's code " +
        "(best_solution.py), the search tree, figures as PNG and SVG",
    )
    .requiredOption("--workspace <dir>", "the workspace folder")
    .option("--run <id>", "report on this run only (default: every run)")
    .option(
      "--step <n>",
      "step (0-based, as in node ids: n0009 is step 9) at which to show the parent-selection distribution " +
        "(default: the last step that sampled)",
    )
    .requiredOption("--out <dir>", "output folder, e.g. reports/<name>")
    .option("--title <text>", "report title", "OpenMLE report")
    .option("--baselines <json>", "baseline scores per task for the normalised score")
    .option("--no-png", "skip the PNGs (no Chromium needed)")
    .option("--json", "print the written paths as JSON")
    .action(
      async (o: {
        workspace: string;
        out: string;
        title: string;
        run?: string;
        step?: string;
        baselines?: string;
        png: boolean;
        json?: boolean;
      }) => {
        const step = o.step === undefined ? undefined : intFlag("step", o.step, { min: 0, max: EVOLVE_MAX.steps - 1 });
        let baselines: Record<string, { trivial: number; reference: number }> | undefined;
        if (o.baselines) {
          const text = readFileFlag("--baselines", o.baselines, BASELINES_FILE);
          try {
            baselines = JSON.parse(text) as typeof baselines;
          } catch (e) {
            throw new UsageError(`--baselines ${o.baselines}: ${(e as Error).message}. ${BASELINES_FILE}`);
          }
        }
        if (o.run !== undefined) {
          // A run that is not there is one line listing the runs there are (resolveRunFlag).
          const ws = await openWorkspace(o.workspace, { readOnly: true });
          try {
            await resolveRunFlag(ws, o.run);
          } finally {
            ws.close();
          }
        }
        const r = await writeReport(o.workspace, o.out, { title: o.title, png: o.png, baselines, run: o.run, step });
        const notDrawn = r.figures.filter((f) => o.png && !f.drawn).map((f) => f.id);
        output(
          !!o.json,
          {
            html: r.html,
            summary: r.summary,
            best_solution: r.bestSolution,
            pngs: r.pngs,
            svgs: r.svgs,
            figures: r.figures.length,
            not_drawn: notDrawn,
          },
          () =>
            [
              `wrote ${r.html}`,
              `wrote ${r.summary}`,
              ...(r.bestSolution ? [`wrote ${r.bestSolution}`] : []),
              ...(o.png
                ? [`${r.pngs.length} PNGs (2×) under ${o.out}/png, ${r.svgs.length} SVGs under ${o.out}/svg`]
                : []),
              ...(notDrawn.length ? [`not drawn: ${notDrawn.join(", ")}`] : []),
            ].join("\n"),
        );
        if (notDrawn.length) process.exitCode = 1;
      },
    );
}
