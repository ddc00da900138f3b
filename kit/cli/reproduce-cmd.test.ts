import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const main = join(import.meta.dirname, "main.ts");
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe("openmle reproduce (CLI)", () => {
  it("--list --json: every experiment with its presets and laptop cost", () => {
    const r = cli("reproduce", "--list", "--json");
    expect(r.err).toBe("");
    const rows = JSON.parse(r.out) as { id: string; presets: string[]; laptop_minutes: number | null }[];
    expect(rows.map((x) => x.id)).toContain("model-fixed-harness");
    expect(rows.find((x) => x.id === "coding-harness")).toMatchObject({ presets: [], laptop_minutes: null });
  });

  it("the paper preset's dry run lists the arms and counts", () => {
    const r = cli("reproduce", "harness-fixed-model", "--preset", "paper", "--dry-run", "--json");
    expect(r.err).toBe("");
    const plan = JSON.parse(r.out);
    expect(plan.totals).toEqual({ arms: 4, tasks: 22, repeats: 3, cells: 264, programs: 52_800, laptop_minutes: null, gpu_hours: 3168 });
    expect([...new Set(plan.cells.map((c: { arm: string }) => c.arm))]).toEqual(["openmle", "aira-evo", "evo-max", "glm-evo-max"]);
  });

  it.each([
    [["reproduce", "table-9", "--dry-run"], /^openmle: unknown experiment "table-9"\. Experiments: /],
    [["reproduce", "naturebench", "--preset", "paper", "--dry-run"], /^openmle: experiment "naturebench" has no paper preset: pass --preset smoke or laptop\.$/],
    [["reproduce", "async-rl", "--preset", "huge", "--dry-run"], /^openmle: --preset huge: pass one of smoke, laptop, paper$/],
    [["reproduce", "async-rl"], /^openmle: running experiments is not built yet: openmle reproduce async-rl --preset laptop --dry-run prints the plan$/],
  ])("%j fails in one line", (args, says) => {
    const r = cli(...args);
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split("\n")).toHaveLength(1);
    expect(r.err.trimEnd()).toMatch(says);
  });
});
