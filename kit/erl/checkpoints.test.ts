import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultGrammarParams, paramsToJson, type GrammarParams } from "../policy/grammar/index.js";
import { openWorkspace } from "../store/index.js";
import {
  CheckpointExistsError, CheckpointNotFoundError, CheckpointVersionError, ErlError,
  kitMajor, listCheckpoints, loadCheckpoint, resolvePolicyParams, saveCheckpoint,
} from "./index.js";

const tmp = () => mkdtempSync(join(tmpdir(), "openmle-ckpt-"));
const tuned: GrammarParams = { version: 1, logits: { "draft.tabular.model": { hist_gb: 2.5, linear: -1 } } };

describe("policy checkpoint store", () => {
  it("saves, loads and lists a checkpoint with its lineage, config hash and metrics", async () => {
    const ws = await openWorkspace(tmp());
    try {
      const c = await saveCheckpoint(ws, { name: "sft-1", params: tuned, parent: "default", source: "sft", dataset: "d1", config: { epochs: 3, lr: 0.1 }, metrics: { llAfter: -3.2 } });
      expect(c).toMatchObject({ name: "sft-1", policy: "grammar", parent: "default", source: "sft", dataset: "d1", metrics: { llAfter: -3.2 }, formatVersion: 1 });
      expect(c.configHash).toMatch(/^[0-9a-f]{16}$/);
      const back = await loadCheckpoint(ws, "sft-1");
      expect(back.params).toEqual(tuned);
      expect(back.config).toEqual({ epochs: 3, lr: 0.1 });
      expect(new Date(back.createdAt).getTime()).toBeGreaterThan(0);
      await saveCheckpoint(ws, { name: "rl-1", params: defaultGrammarParams(), parent: "sft-1", source: "rl", dataset: "run-x" });
      const list = await listCheckpoints(ws);
      expect(list.map((l) => [l.name, l.parent, l.source])).toEqual([["sft-1", "default", "sft"], ["rl-1", "sft-1", "rl"]]);
      expect("params" in list[0]!).toBe(false);
    } finally {
      ws.close();
    }
  });

  it("refuses an existing name unless replace, and leaves the stored one unchanged", async () => {
    const ws = await openWorkspace(tmp());
    try {
      await saveCheckpoint(ws, { name: "a", params: tuned, parent: "default", source: "sft" });
      const err = await saveCheckpoint(ws, { name: "a", params: defaultGrammarParams(), parent: "default", source: "sft" }).catch((e) => e);
      expect(err).toBeInstanceOf(CheckpointExistsError);
      expect(err.message).toMatch(/already exists.*--replace/);
      expect((await loadCheckpoint(ws, "a")).params).toEqual(tuned);
      await saveCheckpoint(ws, { name: "a", params: defaultGrammarParams(), parent: "default", source: "import" }, { replace: true });
      expect((await loadCheckpoint(ws, "a")).params).toEqual(defaultGrammarParams());
      expect(await listCheckpoints(ws)).toHaveLength(1);
      await expect(saveCheckpoint(ws, { name: "default", params: tuned, parent: null, source: "import" })).rejects.toThrow(ErlError);
    } finally {
      ws.close();
    }
  });

  it("names the existing checkpoints when one is missing, and refuses another kit major or format", async () => {
    const ws = await openWorkspace(tmp());
    try {
      await expect(loadCheckpoint(ws, "nope")).rejects.toThrow(/no checkpoint "nope".*none yet/);
      await saveCheckpoint(ws, { name: "ok", params: tuned, parent: "default", source: "sft" });
      const missing = await loadCheckpoint(ws, "nope").catch((e) => e);
      expect(missing).toBeInstanceOf(CheckpointNotFoundError);
      expect(missing.message).toMatch(/it has: ok/);
      await ws.exec("UPDATE policy_checkpoints SET kit_version = '7.0.0' WHERE name = 'ok'");
      const old = await loadCheckpoint(ws, "ok").catch((e) => e);
      expect(old).toBeInstanceOf(CheckpointVersionError);
      expect(old.message).toMatch(/written by kit 7\.0\.0/);
    } finally {
      ws.close();
    }
  });

  it("kit major: 1.x by its first number, 0.x by its minor", () => {
    const table: [string, string][] = [["1.4.2", "1"], ["2.0.0", "2"], ["0.1.3", "0.1"], ["0.2.0", "0.2"]];
    for (const [v, m] of table) expect(kitMajor(v)).toBe(m);
  });

  it("resolves default, a .json file and a checkpoint name", async () => {
    const dir = tmp();
    const file = join(dir, "p.json");
    writeFileSync(file, paramsToJson(tuned));
    expect(await resolvePolicyParams("default")).toEqual({ params: defaultGrammarParams(), checkpoint: "default" });
    expect(await resolvePolicyParams("uniform")).toEqual({
      params: { version: 3, logits: {}, optionWeights: {} },
      checkpoint: "uniform",
    });
    const old = (await resolvePolicyParams("default@1")).params;
    expect([old.version, old.logits]).toEqual([1, defaultGrammarParams().logits]);
    expect(await resolvePolicyParams(file)).toEqual({ params: tuned, checkpoint: file });
    await expect(resolvePolicyParams(join(dir, "missing.json"))).rejects.toThrow(/does not exist/);
    await expect(resolvePolicyParams("sft-1")).rejects.toThrow(/needs a workspace/);
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      await saveCheckpoint(ws, { name: "sft-1", params: tuned, parent: "default", source: "sft" });
      expect(await resolvePolicyParams("sft-1", ws)).toEqual({ params: tuned, checkpoint: "sft-1" });
    } finally {
      ws.close();
    }
  });
  it("refuses params, config or metrics nested past 64 levels in one line, stored or in a file (issue 59.6)", async () => {
    const dir = tmp();
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      for (const column of ["params", "config", "metrics"]) {
        const name = `deep-${column}`;
        await saveCheckpoint(ws, { name, params: tuned, parent: "default", source: "sft" });
        const value = column === "params" ? `{"version":1,"logits":{"x":${deep}}}` : deep;
        await ws.exec(`UPDATE policy_checkpoints SET ${column} = $value WHERE name = $name`, { value, name });
        const e = await loadCheckpoint(ws, name).catch((err: Error) => err);
        expect((e as Error).message).toMatch(new RegExp(`^checkpoint "${name}" \\(its ${column}\\) nests JSON more than 64`));
      }
      await expect(listCheckpoints(ws)).rejects.toThrow(/deep-metrics.*its metrics/);
    } finally {
      ws.close();
    }
    const file = join(dir, "deep.json");
    writeFileSync(file, `{"version":1,"logits":{"x":${deep}}}`);
    await expect(resolvePolicyParams(file)).rejects.toThrow(/^params file .*deep\.json: it nests JSON more than 64 levels/);
    await expect(resolvePolicyParams("/dev/null.json")).rejects.toThrow(/does not exist/);
  });
});
