import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { parseSelector, renderComparison, runsCompare } from "./runs-compare-cmd.js";

const main = join(import.meta.dirname, "main.ts");
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** Three seeds of two harnesses on an RMSE task; the champions' hidden test scores in the run summaries. */
async function fixture(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "openmle-compare-")), "ws");
  const ws = await openWorkspace(dir);
  await ws.append("tasks", [{ task_id: "houses", name: "houses", metric: "rmse", higher_is_better: false }]);
  const run = (harness: string, seed: number, test: number) => ({
    run_id: `${harness}-${seed}`, task_id: "houses", harness, policy: "grammar", seed, status: "finished",
    config: JSON.stringify({ steps: 4, seed }), summary: JSON.stringify({ test_score: test }),
  });
  await ws.append("runs", [run("openmle", 1, 2.0), run("openmle", 2, 2.5), run("openmle", 3, 3.0),
    run("aira-evo", 1, 2.5), run("aira-evo", 2, 2.5), run("aira-evo", 3, 2.8)]);
  ws.close();
  return dir;
}

describe("openmle runs compare", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fixture();
  });

  it("pairs the seeds and gives the interval on A − B in the metric's units, the task's direction", async () => {
    const c = await runsCompare({ workspace: dir, a: "harness=openmle", b: "harness=aira-evo" });
    expect(c.pairs.map((p) => [p.seed, p.d])).toEqual([[1, 0.5], [2, 0], [3, expect.closeTo(-0.2, 12)]]);
    expect(c.interval!.mean).toBeCloseTo(0.1, 12);
    const text = renderComparison(c, "harness=openmle", "harness=aira-evo");
    expect(text).toMatch(/^A = harness=openmle, B = harness=aira-evo: 3 pairs \(task, seed\) on 1 task\(s\)$/m);
    expect(text).toMatch(/A − B on the hidden test \(metric units\): 0\.1 \[.*\] \(95 % paired bootstrap over seeds\); A ahead in 1, behind in 1, level in 1/);
    expect(text).toContain("the interval includes 0: no difference shown at this level");
  });

  it("selectors: several keys, alternatives with |; a bad one names the flag and the keys", () => {
    const r = { run_id: "x", task_id: "cars", harness: "evo-max", policy: "p" } as Parameters<ReturnType<typeof parseSelector>>[0];
    expect(parseSelector("a", "harness=openmle|evo-max,task=cars")(r)).toBe(true);
    expect(parseSelector("a", "harness=openmle")(r)).toBe(false);
    expect(() => parseSelector("b", "model=x")).toThrow(/--b "model=x": expected key=value with key one of harness, policy, task, run/);
  });

  it("on the CLI: the table and the interval; a selector matching nothing is one line", () => {
    const ok = cli("runs", "compare", "--workspace", dir, "--a", "harness=openmle", "--b", "harness=aira-evo");
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/houses\s+1\s+openmle-1\s+aira-evo-1\s+2\s+2\.5\s+0\.5/);
    const none = cli("runs", "compare", "--workspace", dir, "--a", "harness=nope", "--b", "harness=aira-evo");
    expect(none.code).toBe(1);
    expect(none.err.trim()).toBe('openmle: --a "harness=nope" selects no finished run');
  });
});
