// The configs `openmle config schema` lists: every name, the new ones strict (an unknown key is refused), each
// turned into JSON Schema with its defaults.
import { Command } from "commander";
import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { registerConfig } from "./config-cmd.js";
import { CONFIG_SCHEMAS } from "./config-registry.js";

const NAMES = [
  "workspace", "llm", "llmPolicy", "sandbox", "evolve", "collectSft", "sftTrain", "rl", "loop", "report", "taskSpec",
  "referenceZoo", "buildLeaderboards", "normalizedScore", "weakReference",
];

/** `openmle config schema [name]` in this process: its stdout parsed. */
async function schema(...name: string[]): Promise<Record<string, unknown>> {
  const program = new Command().name("openmle").exitOverride();
  registerConfig(program);
  const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    await program.parseAsync(["config", "schema", ...name], { from: "user" });
    return JSON.parse(out.mock.calls.map((c) => String(c[0])).join("")) as Record<string, unknown>;
  } finally {
    out.mockRestore();
  }
}

describe("the config registry", () => {
  test("lists every config by name", () => expect(Object.keys(CONFIG_SCHEMAS)).toEqual(NAMES));

  // The leaderboard and normalised-score configs (issue 60); workspace, llm, llmPolicy and sandbox predate .strict().
  const STRICT = ["referenceZoo", "buildLeaderboards", "normalizedScore", "weakReference"];
  test.each(STRICT)("%s refuses an unknown key", (name) => {
    const s = CONFIG_SCHEMAS[name as keyof typeof CONFIG_SCHEMAS] as z.ZodType;
    expect(s.safeParse({ notASetting: 1 }).success).toBe(false);
  });

  test("config schema prints the leaderboard and normalised-score configs with their defaults", async () => {
    const all = await schema();
    expect(Object.keys(all)).toEqual(NAMES);
    const props = (name: string) => (all[name] as { properties: Record<string, { default?: unknown }> }).properties;
    expect(props("referenceZoo").entryTimeoutS!.default).toBe(60);
    expect(props("buildLeaderboards").jobs!.default).toBe(2);
    expect(props("normalizedScore").clip!.default).toEqual([-1, 2]);
    expect(props("weakReference").minShare!.default).toBe(0.1);
    expect(await schema("weakReference")).toEqual(all.weakReference);
  });
});
