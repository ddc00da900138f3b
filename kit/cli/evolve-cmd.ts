import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { resolvePolicyParams } from "../erl/index.js";
import { evolve, EvolveConfig, HARNESSES, type EvoEvent, type EvolveConfigInput, type RunSummary } from "../evo/index.js";
import { resolveTask } from "../gym/index.js";
import { createOpenAIModel } from "../llm/index.js";
import { createGrammarPolicy, createLlmPolicy } from "../policy/index.js";
import { runSandbox } from "../sandbox/index.js";
import { openWorkspace } from "../store/index.js";
import { writeReport } from "../report/index.js";
import { output, UsageError } from "./run-cli.js";

interface EvolveFlags {
  task: string; harness: string; policy: string; steps?: string; seed: string; workspace: string; workers: string; resume?: string;
  json?: boolean; report?: string; config?: string; baseUrl?: string; model?: string; islands?: string; priors?: boolean; timeout?: string; params?: string;
}

export function registerEvolve(program: Command): void {
  program
    .command("evolve")
    .description("Run a long-horizon search (OpenMLE-Evo, AIRA-Evo, AIDE or MCTS) on a task; nodes and cards go to the workspace")
    .requiredOption("--task <dirOrId>", "task package folder or built-in task id (openmle gym list)")
    .option("--harness <name>", `search harness: ${HARNESSES.join(" | ")}`, "openmle")
    .option("--policy <name>", "grammar (offline, default) | openai (an OpenAI-compatible endpoint, see --base-url/--model)", "grammar")
    .option("--steps <n>", "step budget (nodes); default 20, or the resumed run's")
    .option("--seed <n>", "seed", "0")
    .option("--workspace <dir>", "workspace folder", "workspaces/default")
    .option("--workers <k>", "executions in flight (Evo-Max steady-state workers)", "1")
    .option("--islands <n>", "number of islands")
    .option("--priors", "Evo-Max: show priors distilled from earlier runs on other tasks")
    .option("--timeout <s>", "time limit of one program in seconds")
    .option("--resume <runId>", "continue a run (killed or finished) from its workspace")
    .option("--config <file>", "a JSON file of evolve settings (openmle config schema evolve); flags win")
    .option("--params <ref>", "--policy grammar: parameters from a checkpoint in the workspace (openmle sft train), a .json file, or default")
    .option("--base-url <url>", "--policy openai: endpoint base URL", "http://127.0.0.1:8000/v1")
    .option("--model <id>", "--policy openai: model id", "Qwen/Qwen3-8B")
    .option("--report <dir>", "write a report (HTML + figures) under this folder, e.g. reports/evolve")
    .option("--json", "print the run summary as JSON")
    .action(async (o: EvolveFlags) => {
      if (!(HARNESSES as readonly string[]).includes(o.harness)) throw new UsageError(`unknown harness "${o.harness}". Valid: ${HARNESSES.join(", ")}.`);
      if (o.policy !== "grammar" && o.policy !== "openai") throw new UsageError(`unknown policy "${o.policy}". Valid: grammar, openai.`);
      const int = (v: string | undefined, name: string) => {
        if (v === undefined) return undefined;
        const n = Number(v);
        if (!Number.isInteger(n)) throw new UsageError(`--${name} must be an integer, got "${v}".`);
        return n;
      };
      const fromFile = o.config ? (JSON.parse(readFileSync(o.config, "utf8")) as EvolveConfigInput) : {};
      const config: EvolveConfigInput = {
        ...fromFile, harness: o.harness as EvolveConfigInput["harness"], seed: int(o.seed, "seed"), workers: int(o.workers, "workers"),
        ...(o.steps ? { steps: int(o.steps, "steps") } : {}), ...(o.islands ? { islands: int(o.islands, "islands") } : {}),
        ...(o.priors ? { priors: true } : {}), ...(o.timeout ? { perRunTimeoutS: Number(o.timeout) } : {}),
      };
      const parsed = EvolveConfig.safeParse(config);
      if (!parsed.success) throw new UsageError(`bad evolve settings: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      const task = await resolveTask(o.task);
      const model = o.policy === "openai" ? createOpenAIModel({ baseURL: o.baseUrl, model: o.model }) : undefined;
      if (o.params && o.policy !== "grammar") throw new UsageError("--params applies to --policy grammar only.");
      const ws = await openWorkspace(o.workspace);
      let policy;
      try {
        policy = model ? createLlmPolicy(model) : o.params ? await grammarWithParams(o.params, ws) : createGrammarPolicy();
      } catch (e) {
        ws.close();
        throw e;
      }
      const bar = progressBar(!o.json && process.stderr.isTTY);
      try {
        const res = await evolve({
          task, policy, workspace: ws, memoryModel: model, config, resume: o.resume,
          // One worker: the sandbox stores and reuses records by idempotency key in the workspace.
          evaluate: (job) => runSandbox({ ...job, workspace: parsed.data.workers === 1 ? ws : undefined }),
          onEvent: bar,
        });
        let reportNote = "";
        if (o.report) reportNote = await report(ws, o.report, res.summary);
        output(!!o.json, { ...res.summary, report: o.report ? resolve(o.report) : null }, () => human(res.summary, ws.dir) + reportNote);
      } finally {
        ws.close();
      }
    });
}

/** The grammar policy with params from --params; named grammar:<checkpoint> unless default. */
async function grammarWithParams(ref: string, ws: Awaited<ReturnType<typeof openWorkspace>>) {
  const { params, checkpoint } = await resolvePolicyParams(ref, ws);
  const policy = createGrammarPolicy(params);
  return checkpoint === "default" ? policy : { ...policy, name: `grammar:${checkpoint}` };
}

/** A one-line progress bar on stderr (steps, best validation score, nodes per minute). */
function progressBar(enabled: boolean): (e: EvoEvent) => void {
  return (e) => {
    if (!enabled) return;
    if (e.type === "run-start") process.stderr.write(`run ${e.runId}${e.resumed ? ` (resumed at ${e.nodes} nodes)` : ""}\n`);
    if (e.type === "node") {
      const w = 30;
      const fill = Math.round((w * e.done) / e.total);
      const best = e.best === null ? "-" : e.best.toPrecision(4);
      process.stderr.write(`\r[${"#".repeat(fill)}${".".repeat(w - fill)}] ${e.done}/${e.total} best ${best} ${e.nodesPerMin.toFixed(1)} nodes/min ${e.node.operator.padEnd(9)}`);
    }
    if (e.type === "run-end") process.stderr.write("\n");
  };
}

function human(s: RunSummary, dir: string): string {
  const c = s.champion;
  return [
    `run ${s.runId} on ${s.taskId}: ${s.harness} / ${s.policy}, seed ${s.seed}, ${s.nodes} nodes (${Object.entries(s.byOperator).map(([k, v]) => `${k} ${v}`).join(", ")})`,
    `valid rate ${(100 * s.validRate).toFixed(0)}%, sandbox ${s.sandboxS.toFixed(0)} s, wall ${s.wallS.toFixed(0)} s, stop: ${s.stopReason}`,
    c ? `champion ${c.nodeId} (${c.operator}, ${c.methodFamily}): validation ${c.validScore}, hidden test ${c.testScore}` : "no valid node",
    `workspace ${dir}`,
  ].join("\n");
}

/** The kit/report writer (HTML + figures); a JSON + markdown summary beside it. */
async function report(ws: Awaited<ReturnType<typeof openWorkspace>>, dir: string, s: RunSummary): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "evolve-summary.json"), `${JSON.stringify(s, null, 2)}\n`);
  writeFileSync(join(dir, "evolve-summary.md"), `# ${s.harness} on ${s.taskId}\n\n${human(s, ws.dir)}\n`);
  const r = await writeReport(ws, dir);
  return `\nreport ${r.html} (${r.figures.length} figures; evolve-summary.json/.md beside it)`;
}
