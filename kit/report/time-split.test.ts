import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { timeSplit, timeSplitTable } from "./time-split.js";

it("sums node timings per run and overall, with the kit's share and the unnamed rest", async () => {
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-split-")), "ws"));
  try {
    expect(await timeSplit(ws)).toEqual([]);
    await ws.appendColumns("node_timings", {
      run_id: ["r1", "r1", "r2"], node_id: ["n0", "n1", "n0"],
      node_s: [10, 6, 4], policy_s: [0.5, 0.5, 0], context_s: [0.1, 0.1, 0], sandbox_s: [0.2, 0.2, 0.1],
      program_s: [8, 5, 3], scoring_s: [0.5, 0, 0.4], store_s: [0.1, 0.1, 0.1],
    });
    const rows = await timeSplit(ws);
    expect(rows.map((r) => r.run_id)).toEqual(["r1", "r2", "all"]);
    const [r1, r2, all] = rows;
    // r1: node 16 s, program 13 s → kit share 3/16; named parts 15.3 s → other 0.7 s
    expect(r1!.nodes).toBe(2);
    expect(r1!.kit_share).toBeCloseTo(3 / 16, 12);
    expect(r1!.other_s).toBeCloseTo(0.7, 12);
    // r2: node 4 s, program 3 s → 1/4; parts 3.6 s → other 0.4 s
    expect(r2!.kit_share).toBeCloseTo(0.25, 12);
    expect(r2!.other_s).toBeCloseTo(0.4, 12);
    // all: node 20 s, program 16 s → 0.2
    expect(all!.nodes).toBe(3);
    expect(all!.kit_share).toBeCloseTo(0.2, 12);
    const html = timeSplitTable(rows);
    expect(html).toContain("<td>18.8 %</td>"); // r1 kit share
    expect(html).toContain("<td>8.000 s</td>"); // r1 mean node time
    expect(html).not.toMatch(/NaN|undefined/);
  } finally {
    ws.close();
  }
});
