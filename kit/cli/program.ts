// The `openmle` command tree: a thin face over the kit's calls. Each subcommand lives in its own file
// and registers itself here; `--json` output is stable and documented in README.md. Built by a function
// so tests can walk every command (kit/cli/bad-input.test.ts).
import { Command } from "commander";
import { registerConfig } from "./config-cmd.js";
import { registerEvaluate } from "./evaluate-cmd.js";
import { registerEvolve } from "./evolve-cmd.js";
import { registerExperimentCmd } from "./experiment-cmd.js";
import { registerGrade } from "./grade-cmd.js";
import { registerLeaderboards } from "./leaderboards-cmd.js";
import { registerLlm } from "./llm-cmd.js";
import { registerNode } from "./node-cmd.js";
import { registerReport } from "./report-cmd.js";
import { registerRuns } from "./runs-cmd.js";
import { registerRl } from "./rl-cmd.js";
import { registerLoop } from "./loop-cmd.js";
import { registerPolicy } from "./policy-cmd.js";
import { registerReproduce } from "./reproduce-cmd.js";
import { addTrustPackage, oneLineErrors } from "./run-cli.js";
import { registerSandbox } from "./sandbox-cmd.js";
import { registerServe } from "./serve-cmd.js";
import { registerSft } from "./sft-cmd.js";
import { registerTask } from "./task-cmd.js";
import { registerWorker } from "./worker-cmd.js";
import { registerWorkspace } from "./workspace-cmd.js";

/** The whole `openmle` command tree, every command registered, errors set to one line. */
export function buildProgram(): Command {
  const program = new Command()
    .name("openmle")
    .description("OpenMLE kit: task packages, sandbox, operator policies, evolutionary search, ERL and evaluation.")
    .version("0.1.0");

  // In the order of the stack: store, gym, sandbox, llm, evo (and its runs/nodes), eval/report, config.
  registerWorkspace(program);
  registerTask(program);
  registerSandbox(program);
  registerWorker(program);
  registerLlm(program);
  registerEvolve(program);
  registerRuns(program);
  registerNode(program);
  registerSft(program);
  registerRl(program);
  registerLoop(program);
  registerPolicy(program);
  registerGrade(program);
  registerEvaluate(program);
  registerLeaderboards(program);
  registerReport(program);
  registerReproduce(program);
  registerExperimentCmd(program);
  registerServe(program);
  registerConfig(program);
  addTrustPackage(program);
  oneLineErrors(program);
  return program;
}
