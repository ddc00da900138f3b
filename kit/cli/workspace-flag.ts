// `--workspace DIR` on every command that reads a workspace; the `workspace` commands also keep the
// positional folder they took before (`openmle workspace info DIR`), so either form works.
import { UsageError } from "./run-cli.js";

/**
 * The workspace folder and the other positionals of a command declared as `<cmd> [dir] [a] [b]` with
 * `--workspace`. Rule: with `flag`, the positionals are the others (`names`), or the folder followed by
 * them when it is the same folder; without `flag`, the first positional is the folder. A missing
 * folder or argument, an extra argument, or two different folders is one usage error.
 */
export function workspaceArgs(
  flag: string | undefined,
  given: readonly (string | undefined)[],
  names: readonly string[],
  command: string,
): { dir: string; rest: string[] } {
  const args = given.filter((a): a is string => a !== undefined);
  const usage = `openmle ${command} --workspace DIR${names.map((n) => ` <${n}>`).join("")}`;
  if (args.length === names.length + 1) {
    const [dir, ...rest] = args as [string, ...string[]];
    if (flag !== undefined && flag !== dir)
      throw new UsageError(`two workspaces given (--workspace ${flag} and ${dir}): pass one. Usage: ${usage}`);
    return { dir, rest };
  }
  if (args.length > names.length + 1) throw new UsageError(`too many arguments (${args.length}). Usage: ${usage}`);
  if (flag === undefined) throw new UsageError(`no workspace given: pass --workspace DIR. Usage: ${usage}`);
  if (args.length < names.length) throw new UsageError(`missing argument <${names[args.length]}>. Usage: ${usage}`);
  return { dir: flag, rest: args };
}
