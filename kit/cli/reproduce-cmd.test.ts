import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const main = join(import.meta.dirname, "main.ts");
// A smoke preset runs real programs: on a loaded 2-core machine one command has taken over 2 minutes.
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8", timeout: 300_000 });
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
    expect(plan.totals).toEqual({ arms: 4, tasks: 22, repeats: 3, cells: 264, programs: 52_800, laptop_minutes: null, gpu_hours: 3168, first: [] });
    expect([...new Set(plan.cells.map((c: { arm: string }) => c.arm))]).toEqual(["openmle", "aira-evo", "evo-max", "glm-evo-max"]);
  });

  it("runs a search experiment's smoke preset, writes its table beside the paper's rows, and resumes", () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-reproduce-cli-"));
    const args = ["reproduce", "harness-fixed-model", "--preset", "smoke", "--workspace", join(dir, "ws")];
    const r = cli(...args, "--out", join(dir, "out"));
    expect(r.code, r.err).toBe(0);
    expect(r.err.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^cell 1 of 4: arm openmle, task cars, repeat 1: test [\d.]+, normalised [\d.]+$/),
      expect.stringMatching(/^cell 2 of 4: arm openmle, task seattle-weather, repeat 1: /),
      expect.stringMatching(/^cell 3 of 4: arm aira-evo, task cars, repeat 1: /),
      expect.stringMatching(/^cell 4 of 4: arm aira-evo, task seattle-weather, repeat 1: /),
    ]);
    expect(r.out).toMatch(/^\| kit \(smoke\), exploratory \| OpenMLE-Evo \| 2 \| [\d.]+ ± [\d.]+ \|/m);
    expect(r.out).toMatch(/^\| paper \(reference\) \| Frontis-MA1-35B \+ original AIRA-Evo \|.* 53\.03 \|/m);
    const md = readFileSync(join(dir, "out", "table.md"), "utf8");
    expect(md).toMatch(/Rows labelled "paper \(reference\)" are the paper's numbers.*\n\ncommit \w+ · config \w+ · .* cores/);
    // The page (and so table.png) carries the notes under the table, as table.md does.
    expect(readFileSync(join(dir, "out", "table.html"), "utf8")).toMatch(/<p>Rows labelled &quot;paper \(reference\)&quot;|<p>Rows labelled "paper \(reference\)"/);
    // table.png: the page at 2× device pixels (PNG signature, at least 2 × 1100 px wide)
    const png = readFileSync(join(dir, "out", "table.png"));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(2200);
    expect(png.readUInt32BE(20)).toBeGreaterThan(400);
    // the figure beside the table: the arms' bars drawn by Chromium
    expect(readFileSync(join(dir, "out", "figure.html"), "utf8")).toMatch(/class="openmle-figure"/);
    expect(readFileSync(join(dir, "out", "figure.png")).subarray(1, 4).toString("latin1")).toBe("PNG");
    const again = cli(...args);
    expect(again.err.trimEnd().split("\n").map((l) => l.replace(/^cell \d of 4: .*: /, ""))).toEqual(Array(4).fill("done earlier"));
    // search-efficiency lays out the same cells: read back, nothing rerun; every node's prompt size was recorded.
    const eff = cli("reproduce", "search-efficiency", "--preset", "smoke", "--workspace", join(dir, "ws"));
    expect(eff.code, eff.err).toBe(0);
    expect(eff.err.trimEnd().split("\n").map((l) => l.replace(/^cell \d of 4: .*: /, ""))).toEqual(Array(4).fill("done earlier"));
    expect(eff.out).toMatch(/^\| kit \(smoke\), exploratory \| OpenMLE-Evo \| 2 \| 2\.0 ± 0\.0 \| [\d.]+K ± [\d.]+K? chars \| [\d.]+ per 100K chars \|/m);
    expect(eff.out).toMatch(/^\| kit \(smoke\), exploratory \| OpenMLE-Evo vs AIRA-Evo, 2 matched task-runs \| – \| [+−][\d.]+ % \| [+−][\d.]+ % \|/m);
    expect(eff.out).toMatch(/^\| paper \(reference\) \| OpenMLE-Evo vs AIRA-Evo, 66 task-runs \|/m);
  }, 600_000);

  it("runs an rl experiment's cells on the warm start, says so in the footer, and exits once done", () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-reproduce-warm-"));
    const r = cli("reproduce", "rl-reward-design", "--preset", "smoke", "--workspace", dir, "--sandbox-start", "warm");
    // without closing the zygotes the command would not exit (spawnSync's timeout: status null)
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^cell 1 of 1: arm adaptive, repeat 1: 1 steps, finished$/m);
    expect(r.out).toMatch(/^commit \w+, config \w+, [\d.]+ min, sandbox local, warm start$/m);
  }, 300_000);

  it.each([
    [["reproduce", "async-rl", "--workspace", "/tmp/nope", "--sandbox-start", "tepid"], /^openmle: --sandbox-start tepid is invalid: use cold or warm\.$/],
    [["reproduce", "table-9", "--dry-run"], /^openmle: unknown experiment "table-9"\. Experiments: /],
    [["reproduce", "naturebench", "--preset", "paper", "--dry-run"], /^openmle: experiment "naturebench" has no paper preset: pass --preset smoke or laptop\.$/],
    [["reproduce", "async-rl", "--preset", "huge", "--dry-run"], /^openmle: --preset huge: pass one of smoke, quick, laptop, paper$/],
    [["reproduce", "async-rl"], /^openmle: pass --workspace DIR to run async-rl, or --dry-run for the plan$/],
    [["reproduce", "model-fixed-harness", "--workspace", "/tmp/nope", "--loop", "L", "--recorded-loop", "learning-armA"], /^openmle: pass --loop ID or --recorded-loop NAME, not both$/],
    [["reproduce", "model-fixed-harness", "--preset", "paper", "--workspace", "/tmp/nope", "--endpoint", "qwen"], /^openmle: --endpoint qwen: pass NAME=URL, e\.g\. --endpoint frontis-ma1-35b=http:\/\/gpu-box:8000\/v1$/],
    [["reproduce", "model-fixed-harness", "--preset", "paper", "--workspace", join(tmpdir(), "openmle-rp-paper")], /^openmle: the paper preset needs the 22 MLE-bench Lite packages: import each with .* --mlebench-dir DIR$/],
    [["reproduce", "harness-fixed-model"], /^openmle: pass --workspace DIR to run harness-fixed-model, or --dry-run for the plan$/],
    [["reproduce", "--workspace", "/tmp/nope"], /^openmle: --workspace runs an experiment: pass its id/],
    [["reproduce", "harness-fixed-model", "--registered", "exp-1a2b3c4d5e6f", "--arms", "openmle", "--preset", "smoke"], /^openmle: --registered reads a registration's stored plan and results: drop --arms, --preset \(the plan fixes arms, tasks and seeds\)$/],
    [["reproduce", "harness-fixed-model", "--registered", "exp-1a2b3c4d5e6f"], /^openmle: --registered exp-1a2b3c4d5e6f: pass --workspace DIR, the workspace holding the registration$/],
  ])("%j fails in one line", (args, says) => {
    const r = cli(...args);
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split("\n")).toHaveLength(1);
    expect(r.err.trimEnd()).toMatch(says);
  });
});
