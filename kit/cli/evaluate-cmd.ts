import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import {
  evaluate,
  evaluateRuns,
  liteCompetitionIds,
  liteLeaderboardsFor,
  loadRunOutcomes,
  runBaselines,
  type EvaluateOptions,
  type MeanStd,
} from "../eval/index.js";
import { resolveTask } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { output, printErr, UsageError } from "./run-cli.js";
import { formatTable } from "./format.js";
import { readFileFlag } from "./path-flag.js";
import { resolveRunFlag } from "./run-flag.js";

const ms = (m: MeanStd) => (m.n ? `${m.mean.toFixed(4)} ± ${m.std.toFixed(4)}` : "—");

/** Read `{ "<task_id>": { "trivial": x, "reference": y } }`. */
function readBaselines(
  path: string,
): Record<string, { trivial: number; reference: number; higher_is_better?: boolean }> {
  const text = readFileFlag("--baselines", path, 'Pass a JSON file {"<task_id>": {"trivial": x, "reference": y}}.');
  try {
    return JSON.parse(text) as Record<string, { trivial: number; reference: number; higher_is_better?: boolean }>;
  } catch (e) {
    throw new UsageError(
      `evaluate: cannot read baselines ${path} (${(e as Error).message}); expected {"<task_id>": ` +
        `{"trivial": x, "reference": y}}`,
    );
  }
}

/** The evaluation of one run of the workspace (`--run`). */
async function evaluateOne(ws: Workspace, run: string, baselines: EvaluateOptions["baselines"]) {
  const outcomes = (await loadRunOutcomes(ws)).filter((r) => r.run_id === run);
  return evaluateRuns(outcomes, { baselines, leaderboards: liteLeaderboardsFor(outcomes.map((r) => r.task_id)) });
}

export function registerEvaluate(program: Command): void {
  program
    .command("evaluate")
    .description("Valid Rate, Medal Average, Human Rank (avg@k), grades and per-modality rates of a workspace's runs")
    .requiredOption("--workspace <dir>", "the workspace folder")
    .option("--run <id>", "evaluate this run only (default: every run)")
    .option("--baselines <json>", "baseline scores per task for the normalised score")
    .option(
      "--run-baselines",
      "run the trivial and reference baselines in the sandbox for tasks without a leaderboard " +
        "(tabular tasks resolved by id)",
    )
    .option("--save-baselines <json>", "write the baselines used to this file (for `openmle report --baselines`)")
    .option("--json", "print the full evaluation (groups, tasks, runs) as JSON")
    .action(
      async (o: {
        workspace: string;
        run?: string;
        baselines?: string;
        runBaselines?: boolean;
        saveBaselines?: string;
        json?: boolean;
      }) => {
        const baselines = o.baselines ? readBaselines(o.baselines) : {};
        const ws = await openWorkspace(o.workspace, { readOnly: true });
        try {
          const run = o.run === undefined ? undefined : await resolveRunFlag(ws, o.run);
          if (o.runBaselines) {
            const lite = new Set(liteCompetitionIds());
            const ids = [...new Set((await loadRunOutcomes(ws)).map((r) => r.task_id))].filter(
              (id) => !lite.has(id) && !baselines[id],
            );
            for (const id of ids) {
              try {
                const task = await resolveTask(id);
                const b = await runBaselines(task);
                if (b.trivial !== null && b.reference !== null)
                  baselines[id] = {
                    trivial: b.trivial,
                    reference: b.reference,
                    higher_is_better: task.meta.higherIsBetter,
                  };
                else
                  printErr(
                    `openmle: baselines of ${id} did not both succeed ` +
                      `(trivial ${b.records.trivial.status}, reference ${b.records.reference.status})`,
                  );
              } catch (e) {
                printErr(`openmle: no baselines for ${id}: ${(e as Error).message}`);
              }
            }
          }
          if (o.saveBaselines) writeFileSync(o.saveBaselines, `${JSON.stringify(baselines, null, 2)}\n`);
          const ev = run === undefined ? await evaluate(ws, { baselines }) : await evaluateOne(ws, run, baselines);
          output(!!o.json, ev, () =>
            ev.groups.length
              ? formatTable(
                  ev.groups.map((g) => ({
                    group: g.group,
                    tasks: g.tasks,
                    k: g.k,
                    valid_rate: ms(g.valid_rate),
                    medal_average: ms(g.medal_average),
                    human_rank: ms(g.human_rank),
                    normalized: ms(g.normalized),
                    "gold/silver/bronze/none/invalid/ungraded": Object.values(g.grades).join("/"),
                  })),
                )
              : "no finished runs in this workspace",
          );
        } finally {
          ws.close();
        }
      },
    );
}
