import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { resolvePolicyParams } from "../erl/index.js";
import {
  evolve,
  EvolveConfig,
  EVOLVE_MAX,
  HARNESSES,
  type EvoEvent,
  type EvolveConfigInput,
  type RunSummary,
} from "../evo/index.js";
import { championVsDraft, type ChampionVsDraft } from "../eval/index.js";
import { resolveTask } from "../gym/index.js";
import { createCheckpointPolicy, createGrammarPolicy, createLlmPolicy, grammar } from "../policy/index.js";
import { openWorkspace } from "../store/index.js";
import { journalWriter, writeReport } from "../report/index.js";
import { readConfigFile } from "./config-file.js";
import { formatScore } from "./format.js";
import { snakeKeys } from "../util/index.js";
import { addLlmFlags, llmConfigFromFlags, modelsFromFlags, type LlmFlags } from "./llm-flags.js";
import { sameCommand, withCommandWorkspace } from "./command-workspace.js";
import { printableLine } from "../util/index.js";
import { intFlag, numberFlag, SEED_RANGE, type FlagRange } from "./numeric-flag.js";
import { output, printErr, UsageError } from "./run-cli.js";
import {
  addSearchSandboxOptions,
  checkSearchSandboxFlags,
  PROGRAM_TIMEOUT_RANGE,
  programTimeoutOption,
  withSearchSandbox,
  type SearchSandboxFlags,
} from "./sandbox-flags.js";

export interface EvolveFlags extends LlmFlags, SearchSandboxFlags {
  task: string;
  harness: string;
  policy: string;
  steps?: string;
  seed: string;
  workspace: string;
  workers: string;
  resume?: string;
  json?: boolean;
  report?: string;
  config?: string;
  islands?: string;
  gen0Drafts?: string;
  priors?: boolean;
  timeout?: string;
  params?: string;
  contextFeatures: string;
  preset?: string;
}

export function registerEvolve(program: Command): void {
  const cmd = program
    .command("evolve")
    .description(
      "Run a long-horizon search (OpenMLE-Evo, AIRA-Evo, AIDE or MCTS) on a task; nodes and cards go to the workspace",
    )
    .requiredOption("--task <dirOrId>", "task package folder or built-in task id (openmle task list)")
    .option("--harness <name>", `search harness: ${HARNESSES.join(" | ")}`, "openmle")
    .option(
      "--policy <name>",
      "grammar (offline, default) | openai (an OpenAI-compatible endpoint, see --base-url/--model)",
      "grammar",
    )
    .option("--steps <n>", "step budget (nodes); default 20, or the resumed run's")
    .option("--seed <n>", "seed", "0")
    .option("--workspace <dir>", "workspace folder", "workspaces/default")
    .option("--workers <k>", "executions in flight (Evo-Max steady-state workers)", "1")
    .option("--islands <n>", "number of islands")
    .option(
      "--gen0-drafts <n>",
      "drafts per island in generation 0, and children per later generation (default 5; 2 for a short LLM run)",
    )
    .option("--priors", "Evo-Max: show priors distilled from earlier runs on other tasks")
    .addOption(programTimeoutOption())
    .option("--resume <runId>", "continue a run (killed or finished) from its workspace")
    .option("--preset <name>", "settings preset: laptop (default, small) or paper (the reference code's full scale)")
    .option(
      "--config <file>",
      "a JSON file of evolve settings (openmle config schema evolve); flags given on the command line win",
    )
    .option(
      "--params <ref>",
      "--policy grammar: parameters from a checkpoint in the workspace (openmle sft train), a .json file, or default",
    )
    .option(
      "--context-features <on|off>",
      "--policy grammar: off drops the context labels (what the harness's memory tells about each option) from " +
        "every decision, for ablations",
      "on",
    )
    .option("--report <dir>", "write a report (HTML + figures) under this folder, e.g. reports/evolve")
    .option("--json", "print the run summary as JSON");
  addSearchSandboxOptions(cmd);
  addLlmFlags(cmd).action(async (o: EvolveFlags, command: Command) => {
    if (o.policy !== "grammar" && o.policy !== "openai")
      throw new UsageError(`unknown policy "${o.policy}". Valid: grammar, openai.`);
    const { config, parsed } = evolveSettings(o, command);
    checkSearchSandboxFlags(o);
    const task = await resolveTask(o.task);
    if (o.params && o.policy !== "grammar") throw new UsageError("--params applies to --policy grammar only.");
    if (o.contextFeatures !== "on" && o.contextFeatures !== "off")
      throw new UsageError(`--context-features takes on or off, not "${o.contextFeatures}".`);
    if (o.contextFeatures === "off" && o.policy !== "grammar")
      throw new UsageError("--context-features applies to --policy grammar only.");
    if (o.policy === "openai" || o.memoryModel) llmConfigFromFlags(o); // bad LLM flags fail before a workspace exists
    let runId: string | null = o.resume ?? null;
    const resume = () => (runId ? sameCommand(process.argv.slice(2), "--resume", runId) : null);
    await withCommandWorkspace(
      o.workspace,
      async (ws) => {
        // Every model call is recorded in llm_calls; the memory model is separate and off unless --memory-model.
        const models = o.policy === "openai" || o.memoryModel ? modelsFromFlags(o, ws) : undefined;
        const policy =
          o.policy === "openai"
            ? createLlmPolicy(models!.model)
            : o.params || o.contextFeatures === "off"
              ? await grammarWithParams(o.params ?? "default", ws, o.contextFeatures === "on")
              : createGrammarPolicy();
        // The live journal lets openmle serve and notebooks follow the run without opening the database.
        const journal = journalWriter(ws.dir, {
          taskId: task.meta.id,
          harness: parsed.harness,
          higherIsBetter: task.meta.higherIsBetter,
        });
        const bar = progressBar(process.stderr.isTTY ? (o.json ? "off" : "bar") : "lines");
        // One worker: the sandbox (or the queue client) stores and reuses records by idempotency key in the
        // workspace; several write nodes concurrently on its connection, so the nodes carry the records.
        const sandbox = { workspace: parsed.workers === 1 ? ws : undefined, onWarning: warn };
        const res = await withSearchSandbox(o, sandbox, (sb) =>
          evolve({
            task,
            policy,
            workspace: ws,
            memoryModel: models?.memoryModel,
            config,
            resume: o.resume,
            evaluate: sb.evaluate,
            onEvent: (e) => {
              if (e.type === "run-start") runId = e.runId;
              bar(e);
              journal(e);
            },
          }),
        );
        let reportNote = "";
        const vsDraft = championVsDraft(res.nodes, task.meta.higherIsBetter, res.champion?.nodeId);
        if (o.report) reportNote = await report(ws, o.report, res.summary, vsDraft);
        output(
          !!o.json,
          { ...res.summary, championVsDraft: vsDraft, report: o.report ? resolve(o.report) : null },
          () => human(res.summary, ws.dir, vsDraft) + reportNote,
        );
      },
      { resume },
    );
  });
}

const warn = (m: string) => printErr(`openmle: warning: ${m}`);

/**
 * The grammar policy with params from --params; named grammar:<checkpoint> unless default, and
 * grammar:<checkpoint>/context-off under --context-features off.
 */
async function grammarWithParams(ref: string, ws: Awaited<ReturnType<typeof openWorkspace>>, context: boolean) {
  const { params, checkpoint } = await resolvePolicyParams(ref, ws);
  return context
    ? createCheckpointPolicy(params, checkpoint)
    : createCheckpointPolicy(grammar.withoutContextFeatures(params), `${checkpoint}/context-off`);
}

/**
 * The run's settings: the schema's defaults, then the --config file, then the flags given on the
 * command line (a flag's own default never overrides the file). Unknown keys and wrong types in
 * the file, and flag values the schema rejects, are one-line usage errors.
 */
export function evolveSettings(o: EvolveFlags, cmd: Command): { config: EvolveConfigInput; parsed: EvolveConfig } {
  const given = (name: keyof EvolveFlags) => cmd.getOptionValueSource(name) === "cli";
  const int = (name: "seed" | "workers" | "steps" | "islands" | "gen0Drafts", range: FlagRange) =>
    intFlag(name === "gen0Drafts" ? "gen0-drafts" : name, o[name]!, range);
  if (given("harness") && !(HARNESSES as readonly string[]).includes(o.harness))
    throw new UsageError(`unknown harness "${o.harness}". Valid: ${HARNESSES.join(", ")}.`);
  const fromFile = o.config ? (readConfigFile(o.config, EvolveConfig) as EvolveConfigInput) : {};
  const fromFlags: EvolveConfigInput = {
    ...(given("harness") ? { harness: o.harness as EvolveConfigInput["harness"] } : {}),
    ...(given("seed") ? { seed: int("seed", SEED_RANGE) } : {}),
    ...(given("workers") ? { workers: int("workers", { min: 1, max: EVOLVE_MAX.workers }) } : {}),
    ...(given("steps") ? { steps: int("steps", { min: 1, max: EVOLVE_MAX.steps }) } : {}),
    ...(given("islands") ? { islands: int("islands", { min: 1, max: EVOLVE_MAX.islands }) } : {}),
    ...(given("gen0Drafts") ? { gen0Drafts: int("gen0Drafts", { min: 1, max: EVOLVE_MAX.steps }) } : {}),
    ...(given("priors") ? { priors: true } : {}),
    ...(given("timeout") ? { perRunTimeoutS: numberFlag("timeout", o.timeout!, PROGRAM_TIMEOUT_RANGE) } : {}),
    ...(given("preset") ? { preset: o.preset as EvolveConfigInput["preset"] } : {}),
  };
  const config: EvolveConfigInput = { ...fromFile, ...fromFlags };
  const parsed = EvolveConfig.safeParse(config);
  if (!parsed.success) {
    // The file alone passed its check above, so what fails here is a flag's value.
    const line = parsed.error.issues
      .map((i) => {
        const flag = i.path[0] === "perRunTimeoutS" ? " (--timeout)" : "";
        return `${i.path.join(".")}${flag}: ${i.message.replace(/^Invalid (input|option): /, "")}`;
      })
      .join("; ");
    throw new UsageError(`bad evolve settings: ${line}`);
  }
  return { config, parsed: parsed.data };
}

/**
 * Progress on stderr: on a terminal, a one-line bar (nodes done of the budget, best validation, nodes per
 * minute); off a terminal (piped, CI), one line per node so logs show progress as it happens:
 * `step 9 n0009 improve success score 3.052 best 2.978 (10 of 16 nodes done)`. The step is the node's own,
 * 0-based like its id and the workspace's `step` column; the count in parentheses is how many nodes are done.
 * A node's error signature quotes its program's error, and a run id may be a stored one: both are shown with
 * printableLine.
 */
export function progressBar(
  mode: "bar" | "lines" | "off",
  write: (s: string) => void = (s) => void process.stderr.write(s),
): (e: EvoEvent) => void {
  const num = formatScore;
  return (e) => {
    if (mode === "off") return;
    if (e.type === "run-start")
      write(`run ${printableLine(e.runId)}${e.resumed ? ` (resumed at ${e.nodes} nodes)` : ""}\n`);
    if (e.type === "node" && mode === "lines") {
      const n = e.node;
      const error = n.errorSignature ? ` (${printableLine(n.errorSignature)})` : "";
      write(
        `step ${e.step} ${n.nodeId} ${n.operator} ${n.status}${error} ` +
          `score ${num(n.validScore)} best ${num(e.best)} (${e.done} of ${e.total} nodes done)\n`,
      );
    }
    if (e.type === "node" && mode === "bar") {
      const w = 30;
      const fill = Math.round((w * e.done) / e.total);
      write(
        `\r[${"#".repeat(fill)}${".".repeat(w - fill)}] ${e.done}/${e.total} nodes, best ` +
          `${num(e.best)} ${e.nodesPerMin.toFixed(1)} nodes/min ${e.node.operator.padEnd(9)}`,
      );
    }
    if (e.type === "run-end" && mode === "bar") write("\n");
  };
}

/** Beside the champion: the best draft, and whether the champion's gain over it holds on the hidden test. */
function draftLine(v: ChampionVsDraft): string[] {
  const d = v.bestDraft;
  if (!d || v.validGain === null || v.state === "no-gain") return [];
  const gain = (x: number | null) => (x === null ? "—" : `${x > 0 ? "+" : ""}${formatScore(x)}`);
  const reading =
    v.state === "disagree"
      ? "; the improvement holds on validation only"
      : v.state === "agree"
        ? "; it holds on the hidden test"
        : "";
  return [
    `best draft ${d.nodeId}: validation ${formatScore(d.valid)}, hidden test ${formatScore(d.test)}; the champion's ` +
      `gain over it (> 0 better): validation ${gain(v.validGain)}, hidden test ${gain(v.testGain)}${reading}`,
  ];
}

function human(s: RunSummary, dir: string, vsDraft: ChampionVsDraft): string {
  const c = s.champion;
  const ops = Object.entries(s.byOperator)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return [
    `run ${s.runId} on ${printableLine(s.taskId)}: ${s.harness} / ${s.policy}, seed ${s.seed}, ` +
      `${s.nodes} nodes (${ops})`,
    `node valid rate ${(100 * s.validRate).toFixed(0)}%, sandbox ${s.sandboxS.toFixed(0)} s, wall ` +
      `${s.wallS.toFixed(0)} s, stop: ${s.stopReason}`,
    c
      ? `champion ${c.nodeId} (${c.operator}, ${printableLine(c.methodFamily)}): ` +
        `validation ${formatScore(c.validScore)}, hidden test ${formatScore(c.testScore)}`
      : "no valid node",
    ...draftLine(vsDraft),
    `workspace ${dir}`,
  ].join("\n");
}

/** The kit/report writer (HTML + figures); a JSON (snake_case keys, as `--json`) + markdown summary beside it. */
async function report(
  ws: Awaited<ReturnType<typeof openWorkspace>>,
  dir: string,
  s: RunSummary,
  vsDraft: ChampionVsDraft,
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "evolve-summary.json"),
    `${JSON.stringify(snakeKeys({ ...s, championVsDraft: vsDraft }), null, 2)}\n`,
  );
  writeFileSync(join(dir, "evolve-summary.md"), `# ${s.harness} on ${s.taskId}\n\n${human(s, ws.dir, vsDraft)}\n`);
  const r = await writeReport(ws, dir);
  return `\nreport ${r.html} (${r.figures.length} figures; evolve-summary.json/.md beside it)`;
}
