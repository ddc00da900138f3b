// `openmle task funnel` (the corpus funnel of a build, the paper's Fig. 3), `openmle task list --suite NAME` (which may
// list the sealed suite:confirm: ids, not scores) and `openmle task studies` (the studies that merge candidates).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  type CorpusIndex,
  CorpusIndexError,
  CorpusMissingError,
  corpusPaths,
  evidenceText,
  funnelTable,
  funnelText,
  isSuiteName,
  listBuiltinTasks,
  listCorpusBuilds,
  loadFunnel,
  PAPER_FUNNEL,
  readCorpusIndex,
  readStudies,
  SEALED_RULE,
  studiesPath,
  type StudyMerge,
  SUITE_ALIASES,
  type SuiteEntry,
  SUITES,
  suiteTasks,
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

/** The suite's table, its balance (tasks per modality/task type) under it; confirm says it is sealed. */
function suiteText(entries: readonly SuiteEntry[], name: string): string {
  const sealed = name === "confirm" ? `suite:confirm is sealed (listed here, not run): ${SEALED_RULE}\n` : "";
  if (!entries.length) return `${sealed}suite ${name}: no tasks`;
  const strata = new Map<string, number>();
  for (const e of entries) {
    const key = `${e.modality}/${e.taskType}`;
    strata.set(key, (strata.get(key) ?? 0) + 1);
  }
  const balance = [...strata]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const table = formatTable(
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
  return `${sealed}${table}\n${entries.length} task${entries.length === 1 ? "" : "s"}: ${balance}`;
}

/** `task list [--suite NAME]`: the built-in list as before, or a suite's tasks (core needs no corpus). */
export function registerTaskList(task: Command): void {
  task
    .command("list")
    .description(
      "The built-in task suite, or with --suite a corpus suite (train, dev and confirm exist once " +
        "`openmle task build-corpus` has written the corpus index). confirm is sealed: it may be listed, but its " +
        "tasks run and are read only through registered experiments (openmle experiment)",
    )
    .option(
      "--suite <name>",
      `a suite: ${SUITES.join(" | ")} (all = train and dev, not confirm; heldout is the old name of dev)`,
    )
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
      const name = isSuiteName(o.suite) ? o.suite : SUITE_ALIASES[o.suite];
      if (name === undefined)
        throw new UsageError(
          `unknown suite "${o.suite}": the suites are ${SUITES.join(", ")} (heldout is the old name of dev)`,
        );
      const entries = suiteTasks(name === "core" ? null : await readCorpusIndex(), name);
      output(!!o.json, entries, () => suiteText(entries, name));
    });
}

export function registerTaskFunnel(task: Command): void {
  task
    .command("funnel")
    .description(
      "The corpus funnel of a build (the paper's Fig. 3): per stage entered, passed, failed, skipped and the shares " +
        "kept, beside the paper's; rejection reasons; the accepted tasks' modalities, task types, sizes and headroom",
    )
    .option("--workspace <dir>", "the workspace the corpus build recorded into (default: the corpus's own)")
    .option("--build <id>", "a build id (default: the newest build)")
    .option("--json", "machine-readable output: {build_id, builds, funnel, paper}")
    .action(async (o: { workspace?: string; build?: string; json?: boolean }) => {
      const r = await corpusFunnel(o.workspace, o.build);
      output(!!o.json, r, () => funnelText(r.funnel, r.buildId));
    });
  registerTaskStudies(task);
}

/** One study that merged candidates: its members (with their tasks' suites when an index exists) and evidence. */
export interface StudyGroup {
  readonly study: string;
  /** Members by id; suites: the suites of the member's accepted tasks (empty: none accepted, or no index). */
  readonly members: readonly { readonly id: string; readonly suites: readonly string[] }[];
  readonly merges: readonly (StudyMerge & { readonly text: string })[];
}

/** The merges of the last corpus build (studies.json) grouped by study, with the suites of the index. */
export async function corpusStudies(dir?: string) {
  const rec = readStudies(dir);
  if (!rec) throw new UsageError(`no studies file at ${studiesPath(dir)}: run \`openmle task build-corpus\` first`);
  // The suites come from the index when there is a readable one; the merges stand without it.
  let index: CorpusIndex | null = null;
  let indexNote: string | null = null;
  try {
    index = await readCorpusIndex(dir);
  } catch (e) {
    if (!(e instanceof CorpusMissingError) && !(e instanceof CorpusIndexError)) throw e;
    indexNote = e instanceof CorpusIndexError ? (e as Error).message : null;
  }
  const suitesOf = (id: string) =>
    [...new Set(index?.tasks.filter((t) => t.candidate === id).map((t) => t.suite))].sort();
  const byStudy = new Map<string, StudyMerge[]>();
  for (const m of rec.merges) byStudy.set(m.study, [...(byStudy.get(m.study) ?? []), m]);
  const studies: StudyGroup[] = [...byStudy].map(([study, merges]) => ({
    study,
    members: [...new Set(merges.flatMap((m) => [m.a, m.b]))].sort().map((id) => ({ id, suites: suitesOf(id) })),
    merges: merges.map((m) => ({ ...m, text: evidenceText(m.evidence) })),
  }));
  return { buildId: rec.buildId, indexBuildId: index?.buildId ?? null, indexNote, studies };
}

function studiesText(r: Awaited<ReturnType<typeof corpusStudies>>): string {
  const kinds = new Map<string, number>();
  for (const g of r.studies)
    for (const m of g.merges) kinds.set(m.evidence.kind, (kinds.get(m.evidence.kind) ?? 0) + 1);
  const members = r.studies.reduce((n, g) => n + g.members.length, 0);
  const pairs = r.studies.reduce((n, g) => n + g.merges.length, 0);
  const lines = [
    `corpus build ${r.buildId}: ${r.studies.length} studies merge ${members} candidates; ${pairs} pairs with ` +
      `evidence (${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ") || "none"})`,
  ];
  if (r.indexBuildId === null) lines.push(`${r.indexNote ?? "no corpus index"}: suites not shown`);
  else if (r.indexBuildId !== r.buildId) lines.push(`suites from the index of build ${r.indexBuildId}`);
  for (const g of r.studies) {
    const who = g.members.map((m) =>
      r.indexBuildId === null ? m.id : `${m.id} (${m.suites.length ? m.suites.join(" + ") : "no task"})`,
    );
    lines.push("", `${g.study}: ${who.join(", ")}`);
    // A manifest study's edges are a star from its first member: one line per stated study.
    const stated = new Map<string, string[]>();
    for (const m of g.merges)
      if (m.evidence.kind === "manifest")
        stated.set(m.evidence.study, [...(stated.get(m.evidence.study) ?? [m.a]), m.b]);
    for (const [study, ids] of stated) lines.push(`  ${ids.join(", ")}: state study "${study}" (manifest)`);
    for (const m of g.merges) if (m.evidence.kind !== "manifest") lines.push(`  ${m.a} + ${m.b}: ${m.text}`);
  }
  return lines.join("\n");
}

/** `task studies`: which candidates the last corpus build made one study, and why. */
export function registerTaskStudies(task: Command): void {
  task
    .command("studies")
    .description(
      "The studies of the last corpus build that merge candidates (the same data shipped twice, subsets, splits, " +
        "wide and long copies, later years), each with its members, their suites and the evidence in words",
    )
    .option("--dir <dir>", "the corpus folder (default: $OPENMLE_CACHE/corpus)")
    .option(
      "--json",
      "machine-readable output: {build_id, index_build_id, index_note, studies: [{study, members: [{id, suites}], " +
        "merges: [{a, b, study, evidence: {kind, ...}, text}]}]}",
    )
    .action(async (o: { dir?: string; json?: boolean }) => {
      const r = await corpusStudies(o.dir);
      output(!!o.json, r, () => studiesText(r));
    });
}
