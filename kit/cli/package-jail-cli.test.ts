import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { jailUnavailable } from "../jail/index.js";
import { cleanMarkers, escaped, hostileCopy, startEvidence, type Evidence } from "../gym/test-helpers/hostile-package.js";

// Issue 25: the commands that load, check, describe and score a package, run a program against it or take an
// evolve step, on a copy whose prepare.py and metric.py attack the host. Nothing reaches it.
const main = join(import.meta.dirname, "main.ts");
const tmp = mkdtempSync(join(tmpdir(), "openmle-jail-cli-"));
let ev: Evidence;
let quiet: string;
beforeAll(async () => {
  ev = await startEvidence();
  quiet = hostileCopy(join(tmp, "quiet"), ev, { bombMb: 0 });
});
afterAll(async () => {
  cleanMarkers(ev);
  await ev.close();
  rmSync(tmp, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res) => {
    const p = spawn(process.execPath, ["--import", "tsx", main, ...args], { env: { ...process.env, OPENMLE_CACHE: join(tmp, "cache") } });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => res({ code, out, err }));
  });
}

async function noEscape(): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  expect(escaped(ev)).toEqual([]);
}

describe.skipIf(!!jailUnavailable())("CLI commands on a hostile package", () => {
  test("task check, describe and score work and nothing reaches the host", async () => {
    const [check, describe_, score] = await Promise.all([
      cli("task", "check", quiet, "--json"),
      cli("task", "describe", quiet),
      cli("task", "score", quiet, join(quiet, "data", "private", "test_answer.csv")),
    ]);
    expect([check.code, describe_.code, score.code], check.err + describe_.err + score.err).toEqual([0, 0, 0]);
    expect(JSON.parse(check.out).passed).toBe(true);
    expect(score.out).toMatch(/ChurnAucScore: 1\b/);
    await noEscape();
  }, 300_000);

  test("sandbox run and one evolve step against it: nothing reaches the host", async () => {
    const prog = join(tmp, "main.py");
    const sample = readFileSync(join(quiet, "data", "public", "sample_submission.csv"), "utf8");
    writeFileSync(prog, `open("submission.csv", "w").write(${JSON.stringify(sample)})\nprint("Final Validation Score: 0.5")\n`);
    const run = await cli("sandbox", "run", "--task", quiet, "--code", prog, "--json");
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out).status).toBe("success");
    const evo = await cli("evolve", "--task", quiet, "--steps", "1", "--seed", "1", "--workspace", join(tmp, "ws"));
    expect(evo.code, evo.err).toBe(0);
    await noEscape();
  }, 300_000);

  test("a metric.py that allocates past the cap: task check stops with one line naming the stage", async () => {
    const bomb = hostileCopy(join(tmp, "bomb"), ev, { bombMb: 6144 });
    const r = await cli("task", "check", bomb);
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/^openmle: metric inspect: .*metric\.py went past its 4096 MiB memory cap; it was stopped\./);
    await noEscape();
  }, 300_000);
});
