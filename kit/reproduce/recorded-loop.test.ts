// The model-at-fixed-harness smoke with a recorded loop's checkpoints in place of training them (issue 31 tests):
// the checkpoints are copied once, the arms' loop:g1 resolves to them, and the cells run on real programs.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCheckpoint, saveCheckpoint, resolvePolicyParams } from "../erl/index.js";
import { paramsToJson } from "../policy/index.js";
import { openRecordedRuns } from "../report/index.js";
import { openWorkspace } from "../store/index.js";
import { experimentById } from "./catalogue.js";
import { useRecordedLoop } from "./recorded-loop.js";
import { resolveTaskSet, runSearchExperiment } from "./run-search.js";

describe("useRecordedLoop", () => {
  it("copies the recorded loop's checkpoints once; loop:g1 arms then run", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-recorded-loop-")), "ws"));
    try {
      const first = await useRecordedLoop(ws, "learning-armA");
      expect(first.loopId).toBe("learn-5bd94633");
      expect(first.imported).toEqual(expect.arrayContaining(["learn-5bd94633-g1", "learn-5bd94633-g2"]));
      expect((await useRecordedLoop(ws, "learning-armA")).imported).toEqual([]);
      const rec = await openRecordedRuns("learning-armA");
      try {
        const want = paramsToJson((await loadCheckpoint(rec, "learn-5bd94633-g1")).params);
        expect(paramsToJson((await resolvePolicyParams("learn-5bd94633-g1", ws)).params)).toBe(want);
      } finally {
        rec.close();
      }
      expect(await loadCheckpoint(ws, "learn-5bd94633-g1")).toMatchObject({ source: "import", parent: "uniform" });

      const spec = experimentById("model-fixed-harness");
      const tasks = await resolveTaskSet(spec.presets.smoke!.tasks);
      const cells = await runSearchExperiment({ workspace: ws, spec, preset: "smoke", tasks, loopId: first.loopId });
      expect(cells.map((c) => `${c.arm}/${c.task}`)).toEqual(["uniform/cars", "uniform/seattle-weather", "trained/cars", "trained/seattle-weather"]);
      const runs = await ws.query<{ policy: string; n: number }>("SELECT policy, count(*)::INTEGER AS n FROM runs GROUP BY 1 ORDER BY 1");
      expect(runs).toEqual([{ policy: "grammar:learn-5bd94633-g1", n: 2 }, { policy: "grammar:uniform", n: 2 }]);
    } finally {
      ws.close();
    }
  }, 300_000);

  it("refuses a workspace whose checkpoint of that name differs", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-recorded-loop-")), "ws"));
    try {
      const { params } = await resolvePolicyParams("uniform", ws);
      await saveCheckpoint(ws, { name: "learn-5bd94633-g1", params, parent: null, source: "import" });
      await expect(useRecordedLoop(ws, "learning-armA")).rejects.toThrow(/differs from the recorded loop's .*use another --workspace/);
    } finally {
      ws.close();
    }
  });
});
