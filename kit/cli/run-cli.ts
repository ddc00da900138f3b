import type { Command } from "commander";
import { WorkspaceError } from "../store/index.js";
import { inCliWords } from "./cli-words.js";
import { snakeKeys } from "./json-case.js";
import { KitError } from "../util/index.js";
import { trustPackages } from "../gym/index.js";

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

/** Commands that never run a package's code (no task is loaded, built, checked or scored). */
const NO_PACKAGE_CODE = /^(workspace|runs|node|config|report|serve|llm)\b/;

/**
 * `--trust-package` on every command that may run a package's prepare.py or metric.py: where the jail
 * (bubblewrap with user namespaces) cannot be had, that code then runs on the host with a warning instead of
 * being refused. Where the jail works it is used regardless.
 */
export function addTrustPackage(program: Command): void {
  const leaves = (c: Command, path: string): [Command, string][] =>
    c.commands.length ? c.commands.flatMap((s) => leaves(s, `${path} ${s.name()}`.trim())) : [[c, path]];
  for (const [cmd, path] of program.commands.flatMap((c) => leaves(c, c.name())))
    if (!NO_PACKAGE_CODE.test(path))
      cmd.option(
        "--trust-package",
        "without a usable jail (bubblewrap), run the task package's own code on this host instead of refusing",
      );
  program.hook("preAction", (_root, action) => {
    if (action.opts().trustPackage) trustPackages(true);
  });
}
