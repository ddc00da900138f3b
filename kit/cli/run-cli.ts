import type { Command } from "commander";
import { WorkspaceError } from "../store/index.js";
import { inCliWords } from "./cli-words.js";
import { snakeKeys } from "./json-case.js";
import { KitError } from "../util/index.js";

/** Known errors print one clear line and exit 1; anything else keeps its stack (a bug). */
export async function runCli(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (
      e instanceof UsageError ||
      e instanceof WorkspaceError ||
      (e instanceof Error && (e as { userFacing?: boolean }).userFacing)
    ) {
      process.stderr.write(`openmle: ${inCliWords(e.message)}\n`);
      process.exit(1);
    }
    throw e;
  }
}

/** Bad arguments: printed without a stack, exit code 1. */
export class UsageError extends KitError {}

/**
 * Print either JSON (stable shape, snake_case keys: see json-case.ts) or human text. `rawKeys` keeps
 * the keys as they are (rows of a user's SQL query).
 */
export function output(json: boolean, value: unknown, human: () => string, opts: { rawKeys?: boolean } = {}): void {
  process.stdout.write(json ? `${JSON.stringify(opts.rawKeys ? value : snakeKeys(value), null, 2)}\n` : `${human()}\n`);
}
