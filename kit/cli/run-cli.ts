import type { Command } from "commander";
import { WorkspaceError } from "../store/index.js";
import { inCliWords } from "./cli-words.js";
import { snakeKeys } from "../util/index.js";
import { BIDI, KitError, printable } from "../util/index.js";
import { trustPackages } from "../gym/index.js";

/**
 * Known errors print one clear line and exit 1; anything else keeps its stack (a bug). Either is made
 * printable first: a message may quote what a program or a package wrote (kit/util/terminal-safe.ts).
 */
export async function runCli(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (
      e instanceof UsageError ||
      e instanceof WorkspaceError ||
      (e instanceof Error && (e as { userFacing?: boolean }).userFacing)
    ) {
      process.stderr.write(`openmle: ${printable(inCliWords(e.message))}\n${hintLine(e)}`);
      process.exit(1);
    }
    process.stderr.write(`${printable(e instanceof Error ? (e.stack ?? String(e)) : String(e))}\n${hintLine(e)}`);
    process.exit(1);
  }
}

/**
 * commander's own errors (unknown option or command, missing argument or required option) as one line
 * on stderr, suggestion included and no usage dump: `openmle: unknown option '--polcy' (did you mean
 * --policy?); see 'openmle evolve --help'`. commander exits 1 after writing it. Set on every command of
 * the tree, since each names its own help; call it once every command is registered.
 */
export function oneLineErrors(program: Command): void {
  const walk = (c: Command, path: string) => {
    c.configureOutput({ outputError: (str, write) => write(`${commanderLine(str, path)}\n`) });
    for (const s of c.commands) walk(s, `${path} ${s.name()}`);
  };
  walk(program, program.name());
}

/** One commander error message ("error: …\n(Did you mean …?)\n") as one line naming `path`'s help. */
export function commanderLine(message: string, path: string): string {
  const text = message
    .replace(/^error: /, "")
    .replace(/\(Did you mean/g, "(did you mean")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ");
  return `openmle: ${printable(text)}; see '${path} --help'`;
}

/** How to resume, per failed command's error (command-workspace.ts); printed on the line after the error. */
const resumeHints = new WeakMap<object, string>();

/** Say how to resume after `error` is printed (an error that is not an object has no line). */
export function addResumeHint(error: unknown, line: string): void {
  if (typeof error === "object" && error !== null) resumeHints.set(error, line);
}

const hintLine = (e: unknown): string => {
  const line = typeof e === "object" && e !== null ? resumeHints.get(e) : undefined;
  return line ? `openmle: ${printable(line)}\n` : "";
};

/** Bad arguments: printed without a stack, exit code 1. */
export class UsageError extends KitError {}

/** A line of the kit's own on stderr (a warning, a progress note) that quotes text from programs, made printable. */
export function printErr(line: string): void {
  process.stderr.write(`${printable(line)}\n`);
}

/** DEL, C1 and bidi controls (see kit/util/terminal-safe.ts): JSON.stringify escapes only U+0000–U+001F. */
const JSON_UNESCAPED_CONTROL = new RegExp(`[\\u007f-\\u009f${BIDI}]`, "g");

/** JSON text with every control character escaped (\u009b), so it is as safe on a terminal as it is valid. */
export function jsonText(value: unknown, indent?: number): string {
  return String(JSON.stringify(value, bigintAsJson, indent)).replace(
    JSON_UNESCAPED_CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A BigInt (a query's BIGINT or HUGEINT) as a number where that is exact, else as its decimal string. */
function bigintAsJson(_key: string, v: unknown): unknown {
  if (typeof v !== "bigint") return v;
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/**
 * Print either JSON (stable shape, snake_case keys: see json-case.ts) or human text, made printable:
 * control characters that programs and packages wrote are shown as escapes (kit/util/terminal-safe.ts;
 * single-line fields are the formatters' to escape with printableLine). `rawKeys` keeps the keys as
 * they are (rows of a user's SQL query).
 */
export function output(json: boolean, value: unknown, human: () => string, opts: { rawKeys?: boolean } = {}): void {
  process.stdout.write(json ? `${jsonText(opts.rawKeys ? value : snakeKeys(value), 2)}\n` : `${printable(human())}\n`);
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
