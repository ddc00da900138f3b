import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveTask } from "../../gym/index.js";
import { defaultGrammarParams, handSetGrammarParams, uniformGrammarParams } from "../../policy/grammar/index.js";
import { openWorkspace } from "../../store/index.js";
import { policyKl } from "./decision-diff.js";
import { draftProbes, storedProbes } from "./decision-probes.js";
import { writeGrammarRun } from "./test-helpers/grammar-run.js";

describe("probe decisions", () => {
  it("fresh drafts: deterministic, every decision with its features and (version 3) context labels", async () => {
    const task = await resolveTask("penguins");
    const set = await draftProbes(handSetGrammarParams(), [task], { drafts: 3, seed: 1 });
    expect(set).toMatchObject({ programs: 3, skipped: [], sources: ["penguins"] });
    expect(set.probes.length).toBeGreaterThan(3);
    expect(await draftProbes(handSetGrammarParams(), [task], { drafts: 3, seed: 1 })).toEqual(set);
    for (const c of set.probes) {
      expect(c.name).toMatch(/^draft\.tabular\./);
      expect(c.features).toContain("any");
    }
    // Sampled under version-1 params (no labels), replayed under version 3: the model choice has its labels.
    const model = set.probes.find((c) => c.name === "draft.tabular.model")!;
    expect(Object.values(model.optionFeatures ?? {}).flat()).toContain("untried");
    expect(policyKl(defaultGrammarParams(), defaultGrammarParams(), set.probes).meanKl).toBe(0);
    expect(policyKl(uniformGrammarParams(), defaultGrammarParams(), set.probes).meanKl).toBeGreaterThan(0);
  }, 120_000);

  it("stored runs by run id or by task id: drafts and an improve replayed in their rebuilt contexts", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-probes-")), "ws"));
    try {
      const task = await resolveTask("penguins");
      await writeGrammarRun(ws, "r1", task, defaultGrammarParams());
      const byRun = await storedProbes(ws, { runs: ["r1"] });
      expect(byRun.programs).toBe(3);
      expect(byRun.skipped).toEqual([
        { runId: "r1", nodeId: "n3", reason: "no grammar trace (not written by the grammar)" },
      ]);
      const improve = byRun.probes.filter((c) => c.name.startsWith("improve.tabular."));
      expect(improve.length).toBeGreaterThan(0);
      expect(improve[0]!.features).toContain("parent:success");
      expect(await storedProbes(ws, { tasks: ["penguins"] })).toEqual(byRun);
      expect(await storedProbes(ws, { runs: ["r1"], tasks: ["penguins"] })).toEqual(byRun);
      expect(await storedProbes(ws, { tasks: ["wine"] })).toEqual({ probes: [], programs: 0, skipped: [], sources: [] });
      await expect(storedProbes(ws, { runs: ["nope"] })).rejects.toThrow(/run "nope" is not in workspace/);
    } finally {
      ws.close();
    }
  }, 120_000);
});
