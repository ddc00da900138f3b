import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const main = join(import.meta.dirname, "main.ts");
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("openmle CLI", () => {
  it("--help lists the subcommands", () => {
    const r = cli("--help");
    expect(r.code).toBe(0);
    for (const sub of ["workspace", "task", "sandbox", "worker", "llm", "evolve", "runs", "node", "sft", "rl", "loop", "policy", "grade", "evaluate", "report", "config"]) expect(r.out).toMatch(new RegExp(`^\\s+${sub}\\b`, "m"));
  });

  it("config schema prints JSON Schema with defaults and descriptions", () => {
    const r = cli("config", "schema", "workspace");
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.out);
    expect(schema.properties.readOnly).toMatchObject({ type: "boolean", default: false });
    expect(schema.properties.workspace.description).toMatch(/Folder/);
    expect(cli("config", "schema", "nope")).toMatchObject({ code: 1 });
  });
  it("config schema evolve shows the presets paper and laptop", () => {
    const schema = JSON.parse(cli("config", "schema", "evolve").out);
    expect(schema.properties.preset).toMatchObject({ default: "laptop", enum: ["laptop", "paper"] });
    expect(schema.presets.paper).toMatchObject({ steps: 800, perRunTimeoutS: 7200, debugTimeCapS: 21600 });
    expect(schema.presets.laptop).toMatchObject({ steps: 20, perRunTimeoutS: 300 });
  });

  it("workspace demo, info --json and query work end to end", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "openmle-cli-")), "ws");
    const demo = cli("workspace", "demo", dir, "--out", join(dir, "..", "out"));
    expect(demo.code).toBe(0);
    const info = JSON.parse(cli("workspace", "info", dir, "--json").out);
    expect(info.counts).toMatchObject({ runs: 1, cards: 4 });
    const rows = JSON.parse(cli("workspace", "query", dir, "SELECT operator FROM cards ORDER BY generation_id", "--json").out);
    expect(rows.map((r: { operator: string }) => r.operator)).toEqual(["draft", "improve", "debug", "crossover"]);
  });

  it("a path that is not a workspace gives one clear line and exit code 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-cli-"));
    writeFileSync(join(dir, "x.txt"), "x");
    const r = cli("workspace", "info", dir);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(new RegExp(`^openmle: ${dir} is not an OpenMLE workspace`));
    expect(r.err).not.toMatch(/at .*\.ts:\d+/);
  });
});
