// `openmle experiment`: registered experiments (kit/experiment). register PLAN resolves, hashes and stores a plan
// with its power line; run ID runs exactly the stored plan (resumably; the only command that runs the sealed
// suite:confirm); list shows every registration, run and the count of looks; show ID prints results, logging the look.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  experimentHistory,
  readExperimentResults,
  readPlanFile,
  registerExperiment,
  resolveExperimentId,
  runExperiment,
  verdictLine,
  type ExperimentEvent,
  type ExperimentResults,
  type Registration,
  type RegistrationHistory,
  type ResolvedArm,
} from "../experiment/index.js";
import { ensureCorpus } from "../gym/index.js";
import { createOpenAIModel, recordingModel } from "../llm/index.js";
import { createLlmPolicy } from "../policy/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { sameCommand, withCommandWorkspace } from "./command-workspace.js";
import { corpusProgress } from "./corpus-build-cmd.js";
import { formatNumber, formatScore, formatTable } from "./format.js";
import { llmConfigFromFlags } from "./llm-flags.js";
import { intFlag } from "./numeric-flag.js";
import { output, printErr, UsageError } from "./run-cli.js";
import {
  addSearchSandboxOptions,
  checkSearchSandboxFlags,
  withSearchSandbox,
  type SearchSandboxFlags,
} from "./sandbox-flags.js";

interface Flags {
  workspace: string;
  json?: boolean;
}
interface RunFlags extends Flags, SearchSandboxFlags {
  jobs?: string;
  apiKeyEnv?: string;
}

/** The workspace of run, list and show: it must exist (registering a plan is what creates one). */
function existingWorkspace(dir: string): string {
  const abs = resolve(dir);
  if (!existsSync(abs))
    throw new UsageError(
      `no workspace at ${abs}: register a plan first (openmle experiment register PLAN --workspace DIR)`,
    );
  return abs;
}

const policyText = (a: ResolvedArm) => {
  const p = a.policy;
  const what =
    p.kind === "params"
      ? `params ${p.name}`
      : p.kind === "checkpoint"
        ? `checkpoint ${p.name} (params ${p.paramsHash})`
        : p.kind === "paramsFile"
          ? `params file ${p.path} (params ${p.paramsHash})`
          : `${p.model} at ${p.baseUrl}`;
  const trained =
    p.kind === "params"
      ? "built in"
      : a.trainingTasks === "unknown"
        ? "training tasks unknown"
        : `trained on ${a.trainingTasks.length} tasks`;
  return `${a.name}: ${what}${a.harness ? `, harness ${a.harness}` : ""}, ${trained}`;
};

function registrationText(r: Registration, dir: string): string {
  const { registration: reg, plan } = r;
  const confirm =
    reg.label === "registered"
      ? "registered: the plan names sealed confirm tasks"
      : "exploratory: the plan names no confirm task";
  const level =
    plan.level.kind === "drafts"
      ? `drafts level, ${plan.level.draws} draws`
      : `search level, ${plan.level.seeds} seeds × ${plan.level.steps} steps`;
  const d = plan.decision;
  return [
    r.created
      ? `${reg.registrationId} (${confirm})`
      : `${reg.registrationId} was registered before, at ${reg.registeredAt.toISOString()} (the same plan): ` +
        "nothing stored again",
    `plan ${plan.name}: ${plan.question}`,
    ...plan.arms.map((a) => `  arm ${policyText(a)}`),
    `tasks: ${plan.tasks.length} (${plan.taskItems.join(", ")}), ${level} per task and arm, seed ${plan.seed}`,
    `measures: ${plan.measures.join(", ")}`,
    `decision: ${d.comparison[0]} − ${d.comparison[1]} on ${d.measure}, ${d.direction}, ${d.test}, α ${d.alpha}`,
    `plan hash ${reg.planHash}, kit ${reg.kitCommit}, registered at ${reg.registeredAt.toISOString()}`,
    reg.powerLine,
    ...reg.warnings.map((w) => `warning: ${w}`),
    `run it: openmle experiment run ${reg.registrationId} --workspace ${dir}`,
  ].join("\n");
}

async function register(planPath: string, o: Flags): Promise<void> {
  const plan = readPlanFile(planPath); // a bad plan fails before any workspace is made
  await withCommandWorkspace(o.workspace, async (ws) => {
    const r = await registerExperiment({
      workspace: ws,
      plan,
      loadIndex: () => ensureCorpus({ onEvent: corpusProgress(process.stderr.isTTY ? "bar" : "lines") }),
      onTask: (id, done, of) => !o.json && printErr(`task ${done} of ${of}: ${id}`),
    });
    output(!!o.json, r, () => registrationText(r, o.workspace));
  });
}

const cellLine = (e: ExperimentEvent): string | null => {
  if (e.type === "run-start")
    return `run ${e.runId}: ${e.resumed ? `resumed, ${e.stored} of ${e.total} cells stored` : `${e.total} cells`}`;
  if (e.type === "baselines")
    return `baselines of ${e.tasks} task${e.tasks === 1 ? "" : "s"} (trivial and reference programs) …`;
  if (e.type === "warning") return `openmle: warning: ${e.message}`;
  if (e.type === "cell")
    return (
      `cell ${e.done} of ${e.total}: arm ${e.arm}, task ${e.taskId}, ` +
      `${e.level === "drafts" ? "draw" : "seed"} ${e.draw}: ` +
      (e.valid ? `test ${formatScore(e.testScore)}` : "no graded score")
    );
  return null;
};

async function run(id: string, o: RunFlags): Promise<void> {
  const jobs = o.jobs === undefined ? undefined : intFlag("jobs", o.jobs, { min: 1, max: 64 });
  checkSearchSandboxFlags(o);
  const dir = existingWorkspace(o.workspace);
  await withCommandWorkspace(
    dir,
    async (ws) => {
      const onWarning = (m: string) => printErr(`openmle: warning: ${m}`);
      const r = await withSearchSandbox(o, { onWarning }, (sb) =>
        runExperiment({
          workspace: ws,
          registrationId: id,
          evaluate: sb.evaluate,
          jobs,
          llmPolicy: (ep) =>
            createLlmPolicy(
              recordingModel(createOpenAIModel(llmConfigFromFlags(o, ep.model, ep.baseUrl)), ws, {
                purpose: "operator",
              }),
            ),
          onEvent: (e) => {
            const line = cellLine(e);
            if (line && !o.json) printErr(line);
          },
        }),
      );
      output(
        !!o.json,
        r,
        () =>
          `run ${r.runId} completed: ${r.cells} cells (${r.executed} run now` +
          `${r.resumed ? ", the rest stored before" : ""}); ` +
          (!r.isRegisteredResult
            ? `a re-run of ${id}, not its ${r.label === "registered" ? "registered" : "first"} result`
            : r.label === "registered"
              ? `the registered result of ${id}`
              : `the first result of ${id} (exploratory)`) +
          `\nread it with openmle experiment show ${r.isRegisteredResult ? id : r.runId} --workspace ${o.workspace} ` +
          "(every read is logged)",
      );
    },
    { resume: () => `${sameCommand(process.argv.slice(2))} (the same command resumes the run)` },
  );
}

const runsText = (h: RegistrationHistory) =>
  h.runs.map((r) => `r${r.runNumber} ${r.status}${r.isRegisteredResult ? " (registered result)" : ""}`).join(", ") ||
  "none";

async function list(o: Flags): Promise<void> {
  const ws = await openWorkspace(existingWorkspace(o.workspace), { readOnly: true });
  try {
    const history = await experimentHistory(ws);
    output(!!o.json, history, () =>
      history.length
        ? formatTable(
            history.map((h) => ({
              registration: h.registration.registrationId,
              name: h.registration.name,
              label: h.registration.label,
              registered: h.registration.registeredAt.toISOString().slice(0, 19),
              runs: runsText(h),
              looks: h.looks,
              "last look": h.lastLook?.toISOString().slice(0, 19) ?? "",
            })),
          )
        : `no registrations in ${ws.dir}: openmle experiment register PLAN --workspace DIR`,
    );
  } finally {
    ws.close();
  }
}

/** A measure for people: rates and shares as percentages, Human Rank and scores to 3 decimals; none as "—". */
function measureText(measure: string, v: number | null): string {
  if (v === null || !Number.isFinite(v)) return "—";
  if (measure === "medal_average" || measure === "valid_rate" || measure === "win_rate")
    return `${(100 * v).toFixed(1)} %`;
  return v.toFixed(3);
}

function resultsText(r: ExperimentResults): string {
  const head = [r.label, `plan ${r.plan.name} (${r.registration.registrationId}): ${r.plan.question}`];
  if (!r.run || !r.summary)
    return [
      ...head,
      `no completed run yet: openmle experiment run ${r.registration.registrationId} --workspace DIR`,
    ].join("\n");
  const measures = formatTable(
    r.plan.arms.map((a) => ({
      arm: a.name,
      ...Object.fromEntries(r.plan.measures.map((m) => [m, measureText(m, r.summary!.measures[a.name]?.[m] ?? null)])),
    })),
  );
  const tasks = formatTable(
    r.tasks.map((t) => ({
      task: t.taskId,
      arm: t.arm,
      n: t.n,
      valid: formatNumber(t.validRate),
      "mean test": formatScore(t.meanTest),
      medals: t.medals ?? "—",
      "human rank": t.humanRank === null ? "—" : t.humanRank.toFixed(3),
    })),
  );
  return [
    ...head,
    `run ${r.run.runId} ${r.run.status}` +
      (r.run.finishedAt ? ` at ${r.run.finishedAt.toISOString()}` : "") +
      `, kit ${r.run.kitCommit}` +
      (r.run.kitCommit === r.registration.kitCommit ? "" : ` (registered at ${r.registration.kitCommit})`),
    "",
    measures,
    "",
    `decision: ${verdictLine(r.summary.verdict)}`,
    "",
    tasks,
    "",
    `look ${r.looks.length} of ${r.registration.registrationId} logged (openmle experiment list shows the history)`,
  ].join("\n");
}

async function show(id: string, o: Flags): Promise<void> {
  const dir = existingWorkspace(o.workspace);
  await withCommandWorkspace(dir, async (ws: Workspace) => {
    const { registrationId, runId } = await resolveExperimentId(ws, id);
    const r = await readExperimentResults(ws, registrationId, {
      runId,
      command: `openmle experiment show ${id} --workspace ${o.workspace}`,
    });
    output(!!o.json, r, () => resultsText(r));
  });
}

export function registerExperimentCmd(program: Command): void {
  const exp = program
    .command("experiment")
    .description(
      "Registered experiments: a plan fixed in advance (arms, tasks, level, measures, decision rule) is resolved and " +
        "hashed at registration, run exactly and resumably, and every read of its results is logged. The sealed " +
        "suite:confirm runs and is read only here (kit/experiment/README.md).",
    );
  exp
    .command("register")
    .argument("<plan>", "a plan JSON file (kit/experiment/README.md; examples in bench/erl/plans/)")
    .description("resolve, hash and store a plan; print its summary, hash, time and power line")
    .requiredOption("--workspace <dir>", "workspace folder (created if missing)")
    .option("--json", "machine-readable output")
    .action((plan: string, o: Flags) => register(plan, o));
  const runCmd = exp
    .command("run")
    .argument("<id>", "a registration id (openmle experiment list)")
    .description("run a registration's stored plan; a run not completed resumes, a completed one is re-run anew")
    .requiredOption("--workspace <dir>", "workspace folder holding the registration")
    .option("--jobs <n>", "drafts in flight (default: the plan's concurrency); results do not depend on it")
    .option("--api-key-env <NAME>", "environment variable holding LLM arms' API key (local servers need none)")
    .option("--json", "machine-readable output");
  addSearchSandboxOptions(runCmd).action((id: string, o: RunFlags) => run(id, o));
  exp
    .command("list")
    .description("every registration and run, its label and status, and how many times its results were read")
    .requiredOption("--workspace <dir>", "workspace folder")
    .option("--json", "machine-readable output")
    .action((o: Flags) => list(o));
  exp
    .command("show")
    .argument("<id>", "a registration id (its registered result) or a run id <registration>-r<n>")
    .description("print results, labelled registered <id> or exploratory; the read is logged as a look")
    .requiredOption("--workspace <dir>", "workspace folder")
    .option("--json", "machine-readable output")
    .action((id: string, o: Flags) => show(id, o));
}
