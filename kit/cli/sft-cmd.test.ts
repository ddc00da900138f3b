import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkNode } from "../evo/test-helpers/make-node.js";
import { writeStoredRun } from "../erl/sft/test-helpers/stored-run.js";
import { resolveTask } from "../gym/index.js";
import { openWorkspace } from "../store/index.js";

const main = join(import.meta.dirname, "main.ts");
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe("openmle sft (CLI)", () => {
  it("collect from a stored run, refuse the name again, export JSONL; bad input gives one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-sft-cli-"));
    const wsDir = join(dir, "ws");
    const ws = await openWorkspace(wsDir);
    try {
      await writeStoredRun(ws, "r1", await resolveTask("penguins"), [
        mkNode({ nodeId: "n0", step: 0, validScore: 0.9, testScore: 0.9, plan: "draft a", code: "print('a')\n" }),
        mkNode({ nodeId: "n1", step: 1, validScore: 0.99, testScore: 0.97, plan: "draft b", code: "print('b')\n" }),
      ]);
    } finally {
      ws.close();
    }
    const r = cli("sft", "collect", "--workspace", wsDir, "--runs", "r1", "--dataset", "d1", "--json");
    expect(r.err).toBe("");
    const res = JSON.parse(r.out);
    expect(res).toMatchObject({ dataset: "d1", examples: 1, judge: "skipped" });
    expect(res.segments.map((s: { reason: string }) => s.reason)).toEqual(["below-threshold", "accepted"]);

    const again = cli("sft", "collect", "--workspace", wsDir, "--runs", "r1", "--dataset", "d1");
    expect(again.code).toBe(1);
    expect(again.err.trim()).toMatch(/^openmle: dataset "d1" already exists in .*: pick another --dataset name or pass --replace$/);

    const out = join(dir, "d1.jsonl");
    expect(cli("sft", "export", "--workspace", wsDir, "--dataset", "d1", "--out", out).code).toBe(0);
    const line = JSON.parse(readFileSync(out, "utf8").trim());
    expect(line.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user", "assistant"]);

    // A few bad inputs (each CLI start costs seconds; the library tests cover the rest).
    const bad: [string[], RegExp][] = [
      [["sft", "train", "--workspace", wsDir, "--dataset", "d1", "--to", "s1"], /^openmle: dataset "d1" has no programs written by the grammar policy/],
      [["sft", "train", "--workspace", wsDir, "--dataset", "d1", "--to", "s1", "--split-by", "tasks"], /^openmle: --split-by must be example or task, got "tasks"\.$/],
      [["sft", "train", "--workspace", wsDir, "--dataset", "d1", "--to", "s1", "--folds", "0"], /^openmle: --folds 0 is out of range: use an integer from 1 to 100\.$/],
      [["evolve", "--task", "penguins", "--workspace", wsDir, "--params", "nope"], /^openmle: no checkpoint "nope"/],
    ];
    for (const [args, want] of bad) {
      const b = cli(...args);
      expect(b.code, args.join(" ")).toBe(1);
      expect(b.err.trim()).toMatch(want);
      expect(b.err.trim().split("\n")).toHaveLength(1);
    }
  }, 400_000);
});
