import { KitError } from "../util/index.js";

/** Report errors say what to do; the CLI prints them as one line (userFacing) and exits 1. */
export class ReportError extends KitError {}

/** `--run` names a run the workspace does not hold. */
export class UnknownRunError extends ReportError {
  constructor(runId: string, dir: string, known: readonly string[]) {
    const there = known.length
      ? `Runs there: ${known.slice(0, 8).join(", ")}${known.length > 8 ? ", …" : ""}.`
      : `It holds no runs: start one with openmle evolve --workspace ${dir}.`;
    super(`run "${runId}" is not in workspace ${dir}. ${there}`);
  }
}

/** The run (or workspace) has no nodes yet: nothing to show. */
export class EmptyRunError extends ReportError {
  constructor(what: string, dir: string) {
    super(
      `${what} in workspace ${dir} has no nodes yet: run openmle evolve ` +
        `--workspace ${dir} (or --resume the run) first.`,
    );
  }
}

/** No workspace at the path. */
export class MissingWorkspaceError extends ReportError {
  constructor(dir: string) {
    super(
      `no workspace at ${dir}: pass the folder given to openmle evolve --workspace, or create one ` +
        `with openmle evolve --workspace ${dir}.`,
    );
  }
}
