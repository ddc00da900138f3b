import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    expect(r.stderr).toBe("openmle: --workers 0 is out of range: use an integer from 1 to 1024.\n");
    expect(cli("evolve", "--task", "penguins", "--preset", "huge").stderr).toMatch(/^openmle: bad evolve settings: preset: /);
  });
  // Issue 25, break 8: --steps 1e12 crashed Node (V8 "invalid size", exit 133) with the run left `running`.
  it("refuses --steps past what a run can hold in one line, leaving no workspace", () => {
    const ws = join(mkdtempSync(join(tmpdir(), "openmle-evolve-steps-")), "ws");
    const r = cli("evolve", "--task", "penguins", "--steps", "1e12", "--workspace", ws);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("openmle: --steps 1e12 is out of range: use an integer from 1 to 100000.\n");
    expect(existsSync(ws)).toBe(false);
  });
  it("--context-features takes on or off; off names the policy <checkpoint>/context-off", () => {
    const bad = cli("evolve", "--task", "penguins", "--context-features", "maybe");
    expect([bad.status, bad.stderr]).toEqual([1, 'openmle: --context-features takes on or off, not "maybe".\n']);
    const ws = join(mkdtempSync(join(tmpdir(), "openmle-evolve-ctx-")), "ws");
    const r = cli("evolve", "--task", "penguins", "--steps", "1", "--params", "uniform", "--context-features", "off",
      "--workspace", ws, "--json");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).policy).toBe("grammar:uniform/context-off");
  });
  it("registers the evolve config schema", () => {
    const r = cli("config", "schema", "evolve");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).properties.harness.enum).toEqual(["openmle", "aira-evo", "aide", "mcts"]);
  });
});
