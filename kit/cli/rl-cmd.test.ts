import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeBwrap } from "../sandbox/index.js";
import { openWorkspace } from "../store/index.js";
import { TINY_TASK_DIR } from "../sandbox/test-helpers.js";

const main = join(import.meta.dirname, "main.ts");
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("openmle rl", () => {
  it("bad input gives one clear line and exit code 1", async () => {
    const ws = join(mkdtempSync(join(tmpdir(), "openmle-rl-")), "ws");
    const both = cli("rl", "train", "--workspace", ws, "--tasks", TINY_TASK_DIR, "--to", "x", "--async", "--sync");
    expect(both).toMatchObject({ code: 1 });
    expect(both.err.trim()).toBe("openmle: pass --async or --sync, not both.");
    const missing = cli("rl", "train", "--workspace", ws, "--tasks", TINY_TASK_DIR, "--from", "nope", "--to", "x");
    expect(missing.code).toBe(1);
    expect(missing.err.trim()).toMatch(/^openmle: no checkpoint "nope" in .*use "default"$/);
    // Both failed before storing anything, so the new workspace folder was removed (README "failed commands").
    expect(existsSync(ws)).toBe(false);
    (await openWorkspace(ws)).close();
    const exp = cli("rl", "export", "--workspace", ws, "--run", "r9", "--out", join(ws, "..", "r.jsonl"));
    expect(exp.code).toBe(1);
    expect(exp.err.trim()).toMatch(/^openmle: no RL run "r9"/);
  }, 300_000);

  it.skipIf(!!probeBwrap())("train one sync step, then export its rollouts", () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-rl-"));
    const ws = join(dir, "ws");
    const r = cli("rl", "train", "--workspace", ws, "--tasks", TINY_TASK_DIR, "--to", "rl1", "--steps", "1", "--group", "1", "--sync", "--workers", "2", "--json");
    expect(r.code).toBe(0);
    const res = JSON.parse(r.out);
    expect(res.checkpoint).toBe("rl1");
    expect(res.steps).toHaveLength(1);
    const e = cli("rl", "export", "--workspace", ws, "--run", res.run_id, "--out", join(dir, "r.jsonl"), "--json");
    expect(JSON.parse(e.out).rows).toBe(1);
    expect(readFileSync(join(dir, "r.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
  }, 300_000);
});
