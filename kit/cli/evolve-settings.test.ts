import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { LlmConfig } from "../llm/index.js";
import { resolveLimits, SandboxConfig, SandboxConfigError } from "../sandbox/index.js";
import { evolveSettings, registerEvolve, type EvolveFlags } from "./evolve-cmd.js";
import { registerSandbox } from "./sandbox-cmd.js";

const dir = mkdtempSync(join(tmpdir(), "openmle-evolve-settings-"));
let n = 0;
function configFile(value: unknown): string {
  const f = join(dir, `c${n++}.json`);
  writeFileSync(f, typeof value === "string" ? value : JSON.stringify(value));
  return f;
}

/** Parse `openmle evolve <args>` the way the CLI does, returning the settings the run would get (nothing runs). */
async function settings(...args: string[]) {
  const program = new Command().exitOverride();
  registerEvolve(program);
  let out: ReturnType<typeof evolveSettings> | undefined;
  program.commands.find((c) => c.name() === "evolve")!.action((o: EvolveFlags, cmd: Command) => {
    out = evolveSettings(o, cmd);
  });
  await program.parseAsync(["evolve", "--task", "penguins", ...args], { from: "user" });
  return out!.parsed;
}
const fails = (...args: string[]) => settings(...args).then(() => "", (e: Error) => e.message);

// Issue 10 points 6 and 8.
describe("evolve --gen0-drafts", () => {
  it("sets gen0Drafts, over the file's; a bad value names the flag", async () => {
    expect((await settings("--gen0-drafts", "2")).gen0Drafts).toBe(2);
    expect((await settings("--config", configFile({ gen0Drafts: 3 }), "--gen0-drafts", "4")).gen0Drafts).toBe(4);
    expect((await settings()).gen0Drafts).toBe(5);
    expect(await fails("--gen0-drafts", "0")).toMatch(/^--gen0-drafts 0 is out of range/);
  });
});

describe("evolve --config", () => {
  it("uses harness, seed and workers from the file when no flag is given", async () => {
    const s = await settings("--config", configFile({ harness: "aide", seed: 7, workers: 2, steps: 3 }));
    expect(s).toMatchObject({ harness: "aide", seed: 7, workers: 2, steps: 3 });
  });

  it("lets flags given on the command line win, and only those", async () => {
    const s = await settings("--config", configFile({ harness: "aide", seed: 7, workers: 2 }), "--seed", "3", "--harness", "mcts");
    expect(s).toMatchObject({ harness: "mcts", seed: 3, workers: 2 });
    expect(await settings()).toMatchObject({ harness: "openmle", seed: 0, workers: 1 });
  });

  it("rejects unknown keys naming the nearest valid one, at any depth", async () => {
    expect(await fails("--config", configFile({ sed: 7 }))).toMatch(/^--config .*c\d+\.json: unknown key "sed" \(did you mean "seed"\?\)$/);
    expect(await fails("--config", configFile({ aide: { numDraft: 3 } }))).toMatch(/unknown key "aide\.numDraft" \(did you mean "numDrafts"\?\)/);
    expect(await fails("--config", configFile({ zzzzzzzz: 1 }))).toMatch(/unknown key "zzzzzzzz"$/);
  });

  it("rejects wrong types, bad JSON and missing files in one line", async () => {
    for (const [value, msg] of [
      [{ seed: "7" }, /seed: expected number, received string/],
      [{ harness: "greedy" }, /harness: expected one of "openmle"\|"aira-evo"\|"aide"\|"mcts"/],
      [{ workers: 1.5 }, /workers: expected int/],
      ["{ seed: 7 }", /--config .*: .*JSON/],
      [[1, 2], /expected a JSON object/],
    ] as const) {
      const m = await fails("--config", configFile(value));
      expect(m, JSON.stringify(value)).toMatch(msg);
      expect(m.split("\n")).toHaveLength(1);
    }
    expect(await fails("--config", join(dir, "missing.json"))).toMatch(/missing\.json: no such file/);
  });
});

describe("time limits a Node timer cannot honour are rejected (issue 10 point 8)", () => {
  it("evolve --timeout and perRunTimeoutS in a config file", async () => {
    expect(await fails("--timeout", "1e12")).toBe("--timeout 1e12 is out of range: use a number from 0.1 to 2147483 (Node timers cannot wait longer).");
    expect(await fails("--config", configFile({ perRunTimeoutS: 1e12 }))).toMatch(/perRunTimeoutS: must be at most 2,147,483 s/);
    expect(await settings("--timeout", "2147483")).toMatchObject({ perRunTimeoutS: 2147483 });
  });

  it("sandbox run --timeout, sandbox limits and config schemas", async () => {
    const program = new Command().exitOverride();
    registerSandbox(program);
    const code = configFile("print(1)\n");
    const err = await program.parseAsync(["sandbox", "run", "--task", "penguins", "--code", code, "--timeout", "1e12"], { from: "user" }).catch((e: Error) => e);
    expect(String(err)).toMatch(/--timeout 1e12 is out of range: use a number from 0\.1 to 2147483 \(Node timers cannot wait longer\)/);
    expect(() => resolveLimits({ timeoutS: 1e12 })).toThrow(SandboxConfigError);
    expect(resolveLimits({ timeoutS: 2147483 }).timeoutS).toBe(2147483);
    expect(SandboxConfig.safeParse({ timeoutS: 1e12 }).success).toBe(false);
    expect(LlmConfig.safeParse({ timeoutMs: 1e12 }).success).toBe(false);
    expect(LlmConfig.safeParse({ retryMaxDelayMs: 2 ** 31 }).success).toBe(false);
  });
});
