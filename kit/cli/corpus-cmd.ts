// `openmle task funnel` (the corpus funnel of a build, spec §2.2) and `openmle task list --suite NAME`.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  corpusPaths,
  funnelTable,
  funnelText,
  isSuiteName,
  listBuiltinTasks,
  listCorpusBuilds,
  loadFunnel,
  PAPER_FUNNEL,
  readCorpusIndex,
  suiteTasks,
  SUITES,
  type SuiteEntry,
} from "../gym/index.js";
import { openWorkspace } from "../store/index.js";
import { formatScore, formatTable } from "./format.js";
import { output, UsageError } from "./run-cli.js";

/** The funnel of a build of the workspace at `dir` (default: the corpus's own workspace), newest build by default. */
export async function corpusFunnel(dir: string | undefined, build?: string) {
  const ws0 = resolve(dir ?? corpusPaths().workspace);
  if (!existsSync(ws0))
    throw new UsageError(
      dir
        ? `no workspace at ${ws0}: pass the workspace a corpus build wrote (--workspace DIR)`
        : `no corpus build yet (no workspace at ${ws0}): run \`openmle task build-corpus\` first`,
    );
  const ws = await openWorkspace(ws0, { readOnly: true });
  try {
    const builds = await listCorpusBuilds(ws);
    const stored = await loadFunnel(ws, build);
    if (!stored)
      throw new UsageError(
        builds.length
          ? `workspace ${ws0} holds no corpus build "${build}": builds are ${builds.map((b) => b.buildId).join(", ")}`
          : `workspace ${ws0} holds no corpus build: run \`openmle task build-corpus\` first`,
      );
    return { buildId: stored.buildId, builds, funnel: funnelTable(stored.records, stored.tasks), paper: PAPER_FUNNEL };
  } finally {
    ws.close();
  }
}

function suiteText(entries: readonly SuiteEntry[], name: string): string {
  if (!entries.length) return `suite ${name}: no tasks`;
  return formatTable(
    entries.map((e) => ({
      id: e.id,
      suite: e.suite,
      modality: e.modality,
      "task type": e.taskType,
      metric: e.metric,
      study: e.study ?? "",
      headroom: e.headroom === null ? "" : formatScore(e.headroom),
    })),
  );
}

/** `task list [--suite NAME]`: the built-in list as before, or a suite's tasks (core needs no corpus). */
export function registerTaskList(task: Command): void {
  task
    .command("list")
    .description(
      "The built-in task suite, or with --suite a corpus suite (train and heldout exist once " +
        "`openmle task build-corpus` has written the corpus index)",
    )
    .option("--suite <name>", `a suite: ${SUITES.join(" | ")} (all = train and heldout)`)
    .option(
      "--json",
      "machine-readable output: [{id, name, modality, task_type, metric, source, licence}], with --suite " +
        "[{id, suite, modality, task_type, metric, study, headroom}]",
    )
    .action(async (o: { suite?: string; json?: boolean }) => {
      if (o.suite === undefined) {
        const rows = listBuiltinTasks();
        output(!!o.json, rows, () =>
          rows
            .map(
              (r) =>
                `${r.id.padEnd(18)} ${r.modality.padEnd(12)} ${r.taskType.padEnd(15)} ${r.metric.padEnd(12)} ${r.name}`,
            )
            .join("\n"),
        );
        return;
      }
      const name = o.suite;
      if (!isSuiteName(name)) throw new UsageError(`unknown suite "${name}": the suites are ${SUITES.join(", ")}`);
      const entries = suiteTasks(name === "core" ? null : await readCorpusIndex(), name);
      output(!!o.json, entries, () => suiteText(entries, name));
    });
}

export function registerTaskFunnel(task: Command): void {
  task
    .command("funnel")
    .description(
      "The corpus funnel of a build (spec §2.2): per stage entered, passed, failed, skipped and the shares kept, " +
        "beside the paper's; rejection reasons; the accepted tasks' modalities, task types, sizes and headroom",
    )
    .option("--workspace <dir>", "the workspace the corpus build recorded into (default: the corpus's own)")
    .option("--build <id>", "a build id (default: the newest build)")
    .option("--json", "machine-readable output: {build_id, builds, funnel, paper}")
    .action(async (o: { workspace?: string; build?: string; json?: boolean }) => {
      const r = await corpusFunnel(o.workspace, o.build);
      output(!!o.json, r, () => funnelText(r.funnel, r.buildId));
    });
}
