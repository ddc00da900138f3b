import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../../store/index.js";
import { openLoop } from "./open-loop.js";

describe("openLoop", () => {
  it("a resume keeps the stored settings, may raise generations, never lowers them, and checks the task sets", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-open-loop-")), "ws"));
    try {
      const open = (generations: number, steps = 2, train = ["a"]) =>
        openLoop(ws, "L", train, ["h"], { generations, evolve: { steps } }, () => 0);
      expect((await open(1)).generations).toBe(1);
      // [given generations, given evolve steps] → [generations, evolve steps]: the steps stay the stored ones
      for (const [g, steps, want] of [[3, 5, 3], [0, 2, 1], [1, 9, 1]] as const) {
        const c = await open(g, steps);
        expect([c.generations, (c.evolve as { steps: number }).steps]).toEqual([want, 2]);
      }
      // stored with the preset's settings written out (frozenConfig): a retuned preset does not reach a resume
      expect((await open(1)).evolve).toMatchObject({ steps: 2, gen0Drafts: 2, harness: "openmle" });
      await expect(open(2, 2, ["b"])).rejects.toThrow(/pass the same sets to resume it, or pick a new loop id/);
    } finally {
      ws.close();
    }
  });
});
