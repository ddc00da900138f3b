import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { evaluate, runBaselines, type Evaluation, type MeanStd } from "../eval/index.js";
import { resolveTask } from "../gym/index.js";
import { EXPLORATORY_NOTE, LEADERBOARD_NOTE, NORMALISED_NOTE } from "../report/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { output, printErr, UsageError } from "./run-cli.js";
import { formatTable } from "./format.js";
import { readFileFlag } from "./path-flag.js";
import { resolveRunFlag } from "./run-flag.js";

type Baselines = Record<string, { trivial: number; reference: number; higher_is_better?: boolean }>;

/** mean ± std with `d` decimals (× `k`: 100 for a share shown in %), "—" without a value. */
const ms = (m: MeanStd, d: number, k = 1, unit = "") =>
  m.n ? `${(k * m.mean).toFixed(d)} ± ${(k * m.std).toFixed(d)}${unit}` : "—";

/** Read `{ "<task_id>": { "trivial": x, "reference": y } }`. */
function readBaselines(path: string): Baselines {
  const text = readFileFlag("--baselines", path, 'Pass a JSON file {"<task_id>": {"trivial": x, "reference": y}}.');
  try {
    return JSON.parse(text) as Baselines;
  } catch (e) {
    throw new UsageError(
      `evaluate: cannot read baselines ${path} (${(e as Error).message}); expected {"<task_id>": ` +
        `{"trivial": x, "reference": y}}`,
    );
  }
}

/**
 * `--run-baselines`: the trivial and reference baselines, run in the sandbox, of the tasks (of `run`, or of every
 * run) that have no leaderboard here, neither MLE-bench Lite's nor a current corpus one: the baselines only feed the
 * normalised score, which is what grades those tasks; a graded task keeps its medals and Human Rank and needs none
 * (pass --baselines to have its normalised score too). Tasks with baselines already given are skipped.
 */
async function addRunBaselines(ws: Workspace, run: string | undefined, baselines: Baselines, dir?: string) {
  const graded = await evaluate(ws, dir ? { corpusLeaderboardsDir: dir } : {});
  const ids = [...new Set(graded.runs.filter((r) => run === undefined || r.run_id === run).map((r) => r.task_id))];
  const hasBoard = new Set(graded.runs.filter((r) => r.report).map((r) => r.task_id));
  for (const id of ids.filter((i) => !hasBoard.has(i) && !baselines[i])) {
    try {
      const task = await resolveTask(id);
      const b = await runBaselines(task);
      if (b.trivial !== null && b.reference !== null)
        baselines[id] = { trivial: b.trivial, reference: b.reference, higher_is_better: task.meta.higherIsBetter };
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

/**
 * The groups as a table for people, in the paper's order (Valid Rate, Medal Average, Human Rank), then the
 * normalised score (clipped to [−1, 2]; * where a task of the group has a weak reference), grades; footnotes below.
 */
export function evaluationText(ev: Evaluation): string {
  if (!ev.groups.length) return "no finished runs in this workspace";
  const weak = (group: string) =>
    ev.tasks.filter((t) => t.group === group && t.normalized !== null && t.weak_reference).length;
  const table = formatTable(
    ev.groups.map((g) => ({
      group: g.group,
      tasks: g.tasks,
      k: g.k,
      "valid rate": ms(g.valid_rate, 1, 100, " %"),
      "medal average": ms(g.medal_average, 1, 100, " %"),
      "human rank": ms(g.human_rank, 4),
      "normalised (clipped)": `${ms(g.normalized, 3)}${weak(g.group) ? ` * (${weak(g.group)} weak)` : ""}`,
      "gold/silver/bronze/none/invalid/ungraded": Object.values(g.grades).join("/"),
    })),
  );
  const ungraded = new Set(ev.tasks.filter((t) => t.medal_rate === null).map((t) => t.task_id)).size;
  const tasks = new Set(ev.tasks.map((t) => t.task_id)).size;
  return [
    table,
    "",
    `${EXPLORATORY_NOTE}.`,
    `${LEADERBOARD_NOTE}${ungraded ? ` (here ${ungraded} of ${tasks} tasks)` : ""}.`,
    ...(ev.groups.some((g) => g.normalized.n > 0) ? [`${NORMALISED_NOTE}.`] : []),
  ].join("\n");
}

export function registerEvaluate(program: Command): void {
  program
    .command("evaluate")
    .description(
      "Valid Rate, Medal Average, Human Rank (avg@k; MLE-bench Lite or the kit's corpus leaderboards), the " +
        "normalised score, grades and per-modality rates of a workspace's runs",
    )
    .requiredOption("--workspace <dir>", "the workspace folder")
    .option("--run <id>", "evaluate this run only (default: every run)")
    .option("--baselines <json>", "baseline scores per task for the normalised score")
    .option(
      "--run-baselines",
      "run the trivial and reference baselines in the sandbox for tasks without a leaderboard (neither MLE-bench " +
        "Lite nor a current corpus one; tabular tasks resolved by id)",
    )
    .option("--save-baselines <json>", "write the baselines used to this file (for `openmle report --baselines`)")
    .option("--leaderboards <dir>", "the corpus leaderboards' folder (default data/corpus-leaderboards of the kit)")
    .option("--json", "print the full evaluation (groups, tasks, runs, warnings) as JSON")
    .action(
      async (o: {
        workspace: string;
        run?: string;
        baselines?: string;
        runBaselines?: boolean;
        saveBaselines?: string;
        leaderboards?: string;
        json?: boolean;
      }) => {
        const baselines = o.baselines ? readBaselines(o.baselines) : {};
        const ws = await openWorkspace(o.workspace, { readOnly: true });
        try {
          const run = o.run === undefined ? undefined : await resolveRunFlag(ws, o.run);
          if (o.runBaselines) await addRunBaselines(ws, run, baselines, o.leaderboards);
          if (o.saveBaselines) writeFileSync(o.saveBaselines, `${JSON.stringify(baselines, null, 2)}\n`);
          const opts = { baselines, ...(o.leaderboards ? { corpusLeaderboardsDir: o.leaderboards } : {}) };
          const ev = await evaluate(ws, run === undefined ? opts : { ...opts, runIds: [run] });
          for (const w of ev.warnings ?? []) printErr(`openmle: ${w}`);
          output(!!o.json, ev, () => evaluationText(ev));
        } finally {
          ws.close();
        }
      },
    );
}
