// The pure helpers of the CLI's one style: the workspace folder from --workspace or the first argument,
// the command line that resumes, commander's errors as one line. Hand-written expectations.
import { describe, expect, it } from "vitest";
import { sameCommand } from "./command-workspace.js";
import { commanderLine } from "./run-cli.js";
import { workspaceArgs } from "./workspace-flag.js";

describe("workspaceArgs", () => {
  it.each([
    ["flag only", "W", [undefined], [], { dir: "W", rest: [] }],
    ["positional only", undefined, ["W"], [], { dir: "W", rest: [] }],
    ["the same folder both ways", "W", ["W"], [], { dir: "W", rest: [] }],
    ["flag, then the other argument", "W", ["SELECT 1", undefined], ["sql"], { dir: "W", rest: ["SELECT 1"] }],
    ["folder first, then the other argument", undefined, ["W", "SELECT 1"], ["sql"], { dir: "W", rest: ["SELECT 1"] }],
    ["flag, two others", "W", ["runs", "o.parquet", undefined], ["tableOrSql", "file"], { dir: "W", rest: ["runs", "o.parquet"] }],
  ] as const)("%s", (_n, flag, given, names, want) => {
    expect(workspaceArgs(flag, given, names, "workspace x")).toEqual(want);
  });
  it.each([
    ["two folders", "A", ["B"], [], /^two workspaces given \(--workspace A and B\): pass one\./],
    ["no folder", undefined, [undefined], [], /^no workspace given: pass --workspace DIR\. Usage: openmle workspace x --workspace DIR$/],
    ["a missing argument", "W", [undefined, undefined], ["sql"], /^missing argument <sql>\./],
    ["too many", "W", ["W", "a", "b"], ["sql"], /^too many arguments \(3\)\./],
  ] as const)("%s is one usage error", (_n, flag, given, names, want) => {
    expect(() => workspaceArgs(flag, given, names, "workspace x")).toThrow(want);
  });
});

describe("sameCommand", () => {
  it.each([
    [["evolve", "--task", "cars"], "--resume", "run-1", "openmle evolve --task cars --resume run-1"],
    [["evolve", "--resume", "old", "--steps", "5"], "--resume", "run-1", "openmle evolve --steps 5 --resume run-1"],
    [["evolve", "--resume=old"], "--resume", "run-1", "openmle evolve --resume run-1"],
    [["loop", "--train-tasks", "a b"], undefined, undefined, "openmle loop --train-tasks 'a b'"],
    [["x", "it's"], undefined, undefined, "openmle x 'it'\\''s'"],
  ] as const)("%j", (argv, flag, value, want) => {
    expect(sameCommand(argv, flag, value)).toBe(want);
  });
});

describe("commanderLine", () => {
  it.each([
    ["error: unknown option '--polcy'\n(Did you mean --policy?)\n", "openmle evolve", "openmle: unknown option '--polcy' (did you mean --policy?); see 'openmle evolve --help'"],
    ["error: missing required argument 'dir'\n", "openmle task check", "openmle: missing required argument 'dir'; see 'openmle task check --help'"],
  ])("%j", (message, path, want) => {
    expect(commanderLine(message, path)).toBe(want);
  });
});
