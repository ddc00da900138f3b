import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { evaluate, type MeanStd } from "../eval/index.js";
import { openWorkspace } from "../store/index.js";
import { output, UsageError } from "./run-cli.js";
import { formatTable } from "./workspace-cmd.js";

const ms = (m: MeanStd) => (m.n ? `${m.mean.toFixed(4)} ± ${m.std.toFixed(4)}` : "—");

/** Read `{ "<task_id>": { "trivial": x, "reference": y } }`. */
function readBaselines(path: string): Record<string, { trivial: number; reference: number }> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, { trivial: number; reference: number }>;
  } catch (e) {
    throw new UsageError(`evaluate: cannot read baselines ${path} (${(e as Error).message}); expected {"<task_id>": {"trivial": x, "reference": y}}`);
  }
}

export function registerEvaluate(program: Command): void {
  program
    .command("evaluate")
    .description("Valid Rate, Medal Average, Human Rank (avg@k), grades and per-modality rates of a workspace's runs")
    .requiredOption("--workspace <dir>", "the workspace folder")
    .option("--baselines <json>", "baseline scores per task for the normalised score")
    .option("--json", "print the full evaluation (groups, tasks, runs) as JSON")
    .action(async (o: { workspace: string; baselines?: string; json?: boolean }) => {
      const ws = await openWorkspace(o.workspace, { readOnly: true });
      try {
        const ev = await evaluate(ws, { baselines: o.baselines ? readBaselines(o.baselines) : undefined });
        output(!!o.json, ev, () =>
          ev.groups.length
            ? formatTable(ev.groups.map((g) => ({
                group: g.group, tasks: g.tasks, k: g.k, valid_rate: ms(g.valid_rate), medal_average: ms(g.medal_average),
                human_rank: ms(g.human_rank), normalized: ms(g.normalized), "gold/silver/bronze/none/invalid/ungraded": Object.values(g.grades).join("/"),
              })))
            : "no finished runs in this workspace",
        );
      } finally {
        ws.close();
      }
    });
}
