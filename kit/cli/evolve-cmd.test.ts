import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "kit/cli/main.ts", ...args], { cwd: root, encoding: "utf8", timeout: 120_000 });

describe("openmle evolve (CLI)", () => {
  it("rejects an unknown harness with one line and exit 1", () => {
    const r = cli("evolve", "--task", "penguins", "--harness", "greedy");
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('openmle: unknown harness "greedy". Valid: openmle, aira-evo, aide, mcts.');
  });
  it("rejects bad settings naming the field", () => {
    const r = cli("evolve", "--task", "penguins", "--workers", "0");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^openmle: bad evolve settings: workers: /);
  });
  it("registers the evolve config schema", () => {
    const r = cli("config", "schema", "evolve");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).properties.harness.enum).toEqual(["openmle", "aira-evo", "aide", "mcts"]);
  });
});
