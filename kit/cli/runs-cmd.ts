import type { Command } from "commander";
import { formatRate, formatSplit, loadThroughput } from "../eval/index.js";
import { runNodeCounts } from "../evo/index.js";
import { peekConfirmIds, taskDirections } from "../gym/index.js";
import { formatSeconds } from "../report/index.js";
import { openWorkspace } from "../store/index.js";
import { formatScore, formatTable } from "./format.js";
import { output, printErr } from "./run-cli.js";
import { registerRunsCompare } from "./runs-compare-cmd.js";
import { registerRunsStats } from "./runs-stats-cmd.js";

/** One row of `openmle runs list` (also its --json shape). */
export interface RunListRow {
  readonly runId: string;
  readonly taskId: string;
  readonly harness: string;
  readonly policy: string;
  readonly seed: number;
  readonly nodes: number;
  readonly validNodes: number;
  /** Best validation score in the metric's own direction; null when no node scored. */
  readonly best: number | null;
  readonly status: string;
  readonly startedAt: string | null;
  /** Throughput (kit/eval/throughput.ts): first start to last end, or to the latest node while running. */
  readonly wallS: number | null;
  readonly workers: number;
  readonly nodesPerMin: number | null;
  /** Share of the workers' wall time spent in programs; kitShare = 1 − programShare. */
  readonly programShare: number | null;
  readonly kitShare: number | null;
}

/**
 * The runs of a workspace with their node counts, best validation score and throughput. The direction of
 * "best" comes from the task row evolve records (higher_is_better); a run of an unknown task counts higher as
 * better. Throughput is kit/eval's rule (throughput.ts): nodes per minute of wall time and the share of the
 * workers' wall time spent in programs. Runs on tasks of the sealed suite:confirm are left out (sealedRunCount).
 */
export async function listRuns(dir: string): Promise<RunListRow[]> {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const sealed = peekConfirmIds();
    const rows = (await runNodeCounts(ws)).filter((r) => !sealed.has(r.task_id));
    const higherIsBetter = await taskDirections(ws);
    const speed = new Map((await loadThroughput(ws)).map((t) => [t.runId, t]));
    return rows.map((r) => {
      const t = speed.get(r.run_id);
      return {
        runId: r.run_id,
        taskId: r.task_id,
        harness: r.harness,
        policy: r.policy,
        seed: Number(r.seed),
        nodes: Number(r.nodes),
        validNodes: Number(r.valid_nodes),
        best: higherIsBetter.get(r.task_id) === false ? r.best_lo : r.best_hi,
        status: r.status,
        startedAt: r.started_at,
        wallS: t?.wallS ?? null,
        workers: t?.workers ?? 1,
        nodesPerMin: t?.nodesPerMin ?? null,
        programShare: t?.programShare ?? null,
        kitShare: t?.kitShare ?? null,
      };
    });
  } finally {
    ws.close();
  }
}

/** How many runs of the workspace searched a task of the sealed suite:confirm (listRuns leaves them out). */
export async function sealedRunCount(dir: string): Promise<number> {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const sealed = peekConfirmIds();
    return (await runNodeCounts(ws)).filter((r) => sealed.has(r.task_id)).length;
  } finally {
    ws.close();
  }
}

export function registerRuns(program: Command): void {
  const runs = program.command("runs").description("List the search runs stored in a workspace");
  runs
    .command("list")
    .description(
      "Runs with task, harness, policy, seed, nodes, best validation score, status, wall time, nodes per " +
        "minute and the share of the workers' time in programs vs the kit",
    )
    .requiredOption("--workspace <dir>", "workspace folder")
    .option("--json", "machine-readable output (snake_case keys)")
    .action(async (o: { workspace: string; json?: boolean }) => {
      const rows = await listRuns(o.workspace);
      const sealed = await sealedRunCount(o.workspace);
      if (sealed)
        printErr(
          `openmle: ${sealed} run(s) on tasks of the sealed suite:confirm left out: read them through their ` +
            "registered experiment (openmle experiment list; openmle experiment show ID)",
        );
      output(!!o.json, rows, () =>
        rows.length === 0
          ? `no runs in ${o.workspace} (start one with: openmle evolve --workspace ${o.workspace} --task <id>)`
          : formatTable(
              rows.map((r) => ({
                run: r.runId,
                task: r.taskId,
                harness: r.harness,
                policy: r.policy,
                seed: r.seed,
                nodes: `${r.validNodes}/${r.nodes} valid`,
                best: formatScore(r.best),
                status: r.status,
                wall: formatSeconds(r.wallS) ?? "—",
                "nodes/min": formatRate(r.nodesPerMin),
                "programs / kit": ((p) => `${p.programs} / ${p.kit}`)(formatSplit(r.programShare)),
              })),
            ),
      );
    });
  registerRunsStats(runs);
  registerRunsCompare(runs);
}
