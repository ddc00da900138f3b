// `openmle reproduce`: the paper's experiments (kit/reproduce). --list shows the catalogue with laptop costs;
// `<id> --dry-run` prints an experiment's plan; `<id> --workspace DIR` runs its cells (search, rl, sft or funnel;
// resumable) and prints its table beside the paper's rows; `<id> --registered EXP` lays out a registration's results.
import { existsSync } from "node:fs";
import type { Command } from "commander";
import {
  catalogueRows,
  catalogueText,
  experimentById,
  selectArms,
  cellOwner,
  cellRunId,
  layoutSharedExperiment,
  planExperiment,
  planText,
  provenance,
  resolveTaskSet,
  runFunnelExperiment,
  runRlExperiment,
  runSearchExperiment,
  runSftExperiment,
  funnelRows,
  rlTable,
  searchTable,
  pairedRows,
  pairedMarkdown,
  pairedHtml,
  transferRows,
  transferMarkdown,
  transferHtml,
  type PairedRow,
  type TransferRow,
  type ExtraTable,
  sftTable,
  tableMarkdown,
  useRecordedLoop,
  writeExperiment,
  writeExperimentPng,
  writeExperimentFigure,
  searchFigure,
  rlFigure,
  sftFigure,
  funnelFigure,
  REPRODUCE_PRESETS,
  type CellEvent,
  type ExperimentSpec,
  type ReproducePreset,
  type TableRow,
} from "../reproduce/index.js";
import { loadRunStats, loadThroughput } from "../eval/index.js";
import { corpusPaths } from "../gym/index.js";
import { recordedRunsFolder, ReportError, type Figure } from "../report/index.js";
import { createOpenAIModel, recordingModel } from "../llm/index.js";
import type { SandboxBackend } from "../sandbox/index.js";
import type { Workspace } from "../store/index.js";
import { withCommandWorkspace } from "./command-workspace.js";
import { llmConfigFromFlags } from "./llm-flags.js";
import { checkRegisteredFlags, reproduceRegistered } from "./reproduce-registered.js";
import { output, printErr, UsageError } from "./run-cli.js";
import {
  addSearchSandboxOptions,
  checkSearchSandboxFlags,
  withSearchSandbox,
  type SearchSandboxFlags,
} from "./sandbox-flags.js";

interface ReproduceFlags extends SearchSandboxFlags {
  list?: boolean;
  preset: string;
  dryRun?: boolean;
  workspace?: string;
  loop?: string;
  recordedLoop?: string;
  out?: string;
  png?: boolean;
  json?: boolean;
  endpoint: string[];
  apiKeyEnv?: string;
  llmExtra?: string;
  mlebenchDir?: string;
  arms?: string;
  registered?: string;
}

/** --recorded-loop NAME names a folder of data/recorded-runs (a plain name: no `../`, no link leading out). */
function recordedLoopFlag(name: string): void {
  try {
    recordedRunsFolder(name);
  } catch (e) {
    if (e instanceof ReportError) throw new UsageError(`--recorded-loop: ${e.message}`);
    throw e;
  }
}

/** --endpoint NAME=URL flags as NAME → URL; a malformed one names the flag. */
export function endpointFlags(values: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of values) {
    const m = /^([^=\s]+)=(https?:\/\/\S+)$/.exec(v);
    if (!m)
      throw new UsageError(`--endpoint ${v}: pass NAME=URL, e.g. --endpoint frontis-ma1-35b=http://gpu-box:8000/v1`);
    if (out.has(m[1]!)) throw new UsageError(`--endpoint ${m[1]} is given twice`);
    out.set(m[1]!, m[2]!);
  }
  return out;
}

const num = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));

/** One progress line per cell on stderr. */
const cellLine = (e: CellEvent) =>
  `cell ${e.done} of ${e.total}: arm ${e.arm}, task ${e.task}, repeat ${e.repeat}: ` +
  (e.cached ? "done earlier" : `test ${num(e.testScore)}, normalised ${num(e.normalized)}`);

/** The funnel's cells: package code in its own jail, no programs, so no sandbox backend is opened. */
async function runFunnelCells(ws: Workspace, spec: ExperimentSpec, preset: ReproducePreset, o: ReproduceFlags) {
  const say = (m: string) => !o.json && printErr(m);
  const r = await runFunnelExperiment({
    workspace: ws,
    spec,
    preset,
    onEvent: (e) =>
      e.type === "candidate" &&
      say(
        `candidate ${e.done} of ${e.total}: ${e.candidate}` +
          (e.cached ? " (done earlier)" : `, ${(e.ms / 1000).toFixed(1)} s`),
      ),
  });
  return { rows: funnelRows(spec, preset, r), cells: r, figure: funnelFigure(spec, preset, r) };
}

/** Runs the experiment's cells (kind by kind) and returns its table rows and what it ran. */
async function runCells(
  ws: Workspace,
  spec: ExperimentSpec,
  preset: ReproducePreset,
  o: ReproduceFlags,
  sb: SandboxBackend,
) {
  const say = (m: string) => !o.json && printErr(m);
  let loopId = o.loop;
  if (o.recordedLoop) {
    const r = await useRecordedLoop(ws, o.recordedLoop);
    say(
      `recorded loop ${r.loopId} (data/recorded-runs/${o.recordedLoop}): ` +
        (r.imported.length ? `${r.imported.length} checkpoints copied into the workspace` : "its checkpoints are here"),
    );
    loopId = r.loopId;
  }
  const loop = loopId ? { loopId } : {};
  const cellSpec = spec.sharesCellsWith ? cellOwner(spec) : spec;
  // Each endpoint arm's model records its calls in llm_calls (tokens for the efficiency layout), as evolve does.
  const endpoints = new Map(
    [...endpointFlags(o.endpoint)].map(([name, url]) => [
      name,
      recordingModel(createOpenAIModel(llmConfigFromFlags(o, name, url)), ws, { purpose: "operator" }),
    ]),
  );
  const tasks = await resolveTaskSet(cellSpec.presets[preset]!.tasks, { mlebenchDir: o.mlebenchDir });
  // Local, Docker: rl cells pool their groups on the executor's slots; queue: the workers' slots bound them.
  const sandbox = sb.executor ? { evaluate: sb.evaluate, executor: sb.executor } : { evaluate: sb.evaluate };
  const base = { workspace: ws, spec, preset, tasks, endpoints, ...loop, ...sandbox };
  if (spec.sharesCellsWith) {
    const r = await layoutSharedExperiment({ ...base, onEvent: (e) => say(cellLine(e)) });
    return { rows: r.rows, cells: r.cells, runIds: r.cells.map((c) => c.runId), figure: r.figure };
  }
  if (spec.kind === "rl") {
    const cells = await runRlExperiment({
      ...base,
      onEvent: (e) =>
        say(
          `cell ${e.done} of ${e.total}: arm ${e.arm}, repeat ${e.repeat}: ` +
            (e.cached ? "done earlier" : `${e.run.steps.length} steps, ${e.run.status}`),
        ),
    });
    return { rows: rlTable(spec, preset, cells), cells, figure: rlFigure(spec, preset, cells) };
  }
  if (spec.kind === "sft") {
    const cells = await runSftExperiment({
      ...base,
      onEvent: (e) =>
        say(
          e.type === "sft-run"
            ? `arm ${e.arm}, repeat ${e.repeat}: teacher run ${e.done} of ${e.total} (${e.task}) done`
            : e.type === "sft-drafts"
              ? `arm ${e.arm}, repeat ${e.repeat}: ${e.task}: ${e.kept} drafts kept of ${e.attempts} attempts`
              : `cell ${e.done} of ${e.total}: arm ${e.arm}, repeat ${e.repeat}: ${e.examples} examples` +
                (e.cached ? " (done earlier)" : ""),
        ),
    });
    // the cells' runs: each cell's teacher runs (its parallel drafts are no run of their own)
    const runIds = cells.flatMap((c) => tasks.map((t) => cellRunId(spec, preset, c.arm, t.meta.id, c.repeat)));
    return { rows: sftTable(spec, preset, cells), cells, runIds, figure: sftFigure(spec, preset, cells) };
  }
  const cells = await runSearchExperiment({
    ...base,
    onEvent: (e) => say(cellLine(e)),
    onWarning: (m) => printErr(`openmle: warning: ${m}`),
  });
  const figure = searchFigure(spec, preset, cells);
  const paired = pairedRows(spec, preset, cells);
  const views = new Map(
    (
      await loadRunStats(
        ws,
        cells.map((c) => c.runId),
      )
    ).map((s) => [s.run_id, s.transfer]),
  );
  const transfer = transferRows(spec, preset, cells, views);
  const extras: ExtraTable[] = [
    ...(paired.length ? [{ markdown: pairedMarkdown(paired), html: pairedHtml(paired) }] : []),
    { markdown: transferMarkdown(transfer), html: transferHtml(transfer) },
  ];
  const rows = searchTable(spec, preset, cells);
  return { rows, cells, runIds: cells.map((c) => c.runId), figure, paired, transfer, extras };
}

async function run(spec: ExperimentSpec, preset: ReproducePreset, o: ReproduceFlags): Promise<void> {
  const t0 = Date.now();
  await withCommandWorkspace(o.workspace!, async (ws) => {
    const onWarning = (m: string) => printErr(`openmle: warning: ${m}`);
    const {
      rows,
      cells,
      runIds = [],
      figure = null,
      paired = [],
      transfer = [],
      extras = [],
    }: {
      rows: TableRow[];
      cells: unknown;
      runIds?: string[];
      figure?: Figure | null;
      paired?: PairedRow[];
      transfer?: TransferRow[];
      extras?: ExtraTable[];
    } = spec.kind === "funnel"
      ? await runFunnelCells(ws, spec, preset, o)
      : await withSearchSandbox(o, { onWarning }, (sb) => runCells(ws, spec, preset, o, sb));
    // A layout of another experiment's cells carries that experiment's config (the cells').
    const cellsS = runIds.length ? (await loadThroughput(ws, runIds)).reduce((t, r) => t + (r.wallS ?? 0), 0) : null;
    const owner = spec.sharesCellsWith ? cellOwner(spec) : spec;
    // The funnel runs package code in its own jail, no programs: no sandbox to name.
    const where =
      spec.kind === "funnel" ? null : o.backend === "queue" ? "queue workers" : `${o.backend}, ${o.sandboxStart} start`;
    const p = provenance(owner, preset, (Date.now() - t0) / 1000, new Date(), cellsS, where);
    const written = o.out ? writeExperiment(o.out, spec, preset, rows, p, extras) : null;
    const png = o.png !== false;
    const table = written && png ? { ...written, png: await writeExperimentPng(written.html) } : written;
    const fig = o.out && figure ? await writeExperimentFigure(o.out, figure, { png }) : null;
    const files = table && fig ? { ...table, figure: fig.html, ...(fig.png ? { figurePng: fig.png } : {}) } : table;
    const pairs = paired.map((r) => ({ comparison: r.comparison, ...r.result }));
    output(!!o.json, { id: spec.id, preset, cells, rows, paired: pairs, transfer, provenance: p, files }, () =>
      [
        tableMarkdown(rows),
        "",
        ...extras.flatMap((x) => [x.markdown, ""]),
        `commit ${p.commit}, config ${p.configHash}, ${(p.wallS / 60).toFixed(1)} min` +
          (p.cellsWallS === null ? "" : ` (the cells' runs: ${(p.cellsWallS / 60).toFixed(1)} min)`) +
          (p.sandbox ? `, sandbox ${p.sandbox}` : ""),
        ...(files ? [`wrote ${Object.values(files).join(", ")}`] : []),
      ].join("\n"),
    );
  });
}

/** Whether this machine's corpus is built (its index exists): a dry run then leaves the build out of the cost. */
const corpusBuilt = () => existsSync(corpusPaths().index);

export function registerReproduce(program: Command): void {
  const cmd = program
    .command("reproduce")
    .argument("[id]", "an experiment id (openmle reproduce --list shows them)")
    .description(
      "The paper's experiments as specs: --list shows every one with its laptop cost; <id> --dry-run prints the " +
        "plan of one preset (arms × tasks × repeats, programs, estimated minutes or GPU hours); <id> --workspace " +
        "DIR runs its cells (search, rl, sft or funnel; resumable: a finished cell is not rerun) and prints its " +
        "table beside the paper's rows; an experiment that lays out another's cells (modality, solution-ceiling, " +
        "search-efficiency) runs or reads back that one's cells in the same workspace.",
    )
    .option("--list", "list the experiments (id, title, paper item, presets, laptop cost)")
    .option("--preset <name>", `one of ${REPRODUCE_PRESETS.join(", ")}`, "laptop")
    .option("--dry-run", "print the plan and run nothing")
    .option("--workspace <dir>", "workspace folder of the experiment's runs (created if missing)")
    .option("--loop <id>", "the loop whose checkpoints the arms' loop:gN policies mean (openmle loop --loop ID)")
    .option(
      "--recorded-loop <name>",
      "use a loop the kit recorded (data/recorded-runs/<name>, e.g. learning-armA): its checkpoints are copied " +
        "into the workspace and the arms' loop:gN policies mean them",
    )
    .option(
      "--endpoint <NAME=URL>",
      "the OpenAI-compatible server of arms with policy endpoint:NAME (its model id is NAME, e.g. vLLM " +
        "--served-model-name NAME); repeatable",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option("--api-key-env <NAME>", "environment variable holding the endpoints' API key (local servers need none)")
    .option("--llm-extra <json>", "extra JSON merged into every endpoint request (see openmle evolve --help)")
    .option("--mlebench-dir <dir>", "the paper preset's tasks: the 22 MLE-bench Lite packages, DIR/<competition id>")
    .option("--arms <ids>", "run and lay out only these arms of the preset, comma-separated (e.g. base-35b)")
    .option(
      "--registered <id>",
      "lay out a registered experiment's results instead (openmle experiment list; a run id <id>-rN for a re-run): " +
        "search experiments and their modality and solution-ceiling layouts; nothing runs, the read is a logged look",
    )
    .option(
      "--out <dir>",
      "also write table.md, table.html and table.png there (e.g. reports/<name>), and the experiment's " +
        "figure.html and figure.png (every kind but a layout of another experiment's cells)",
    )
    .option("--no-png", "with --out, skip table.png and figure.png (they need Chromium)")
    .option("--json", "machine-readable output");
  addSearchSandboxOptions(cmd).action(async (id: string | undefined, o: ReproduceFlags) => {
    if (o.list || !id) {
      if (id) throw new UsageError(`pass an experiment id or --list, not both`);
      if (o.workspace) throw new UsageError(`--workspace runs an experiment: pass its id (openmle reproduce --list)`);
      const rows = catalogueRows(undefined, { corpusBuilt: corpusBuilt() });
      return output(!!o.json, rows, () => catalogueText(rows));
    }
    if (!(REPRODUCE_PRESETS as readonly string[]).includes(o.preset))
      throw new UsageError(`--preset ${o.preset}: pass one of ${REPRODUCE_PRESETS.join(", ")}`);
    const preset = o.preset as ReproducePreset;
    const all = experimentById(id);
    if (o.registered) {
      checkRegisteredFlags({ ...o, registered: o.registered });
      return reproduceRegistered(all, { ...o, registered: o.registered });
    }
    const spec = o.arms
      ? selectArms(
          all,
          preset,
          o.arms.split(",").map((a) => a.trim()),
        )
      : all;
    const plan = planExperiment(spec, preset, { corpusBuilt: corpusBuilt() });
    if (o.dryRun) return output(!!o.json, plan, () => planText(spec, plan));
    if (spec.sharesCellsWith) planExperiment(cellOwner(spec), preset); // the owner must have the preset
    if (!o.workspace) throw new UsageError(`pass --workspace DIR to run ${id}, or --dry-run for the plan`);
    if (o.loop && o.recordedLoop) throw new UsageError("pass --loop ID or --recorded-loop NAME, not both");
    if (o.recordedLoop) recordedLoopFlag(o.recordedLoop); // a name leading out of data/recorded-runs fails first
    for (const [name, url] of endpointFlags(o.endpoint)) llmConfigFromFlags(o, name, url); // bad flags fail first
    checkSearchSandboxFlags(o);
    await run(spec, preset, o);
  });
}
