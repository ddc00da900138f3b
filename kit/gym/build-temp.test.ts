// A build's temporary folder (issue 59 point 7): private while it holds the answers; the next build of the same
// output removes what a killed build left, and never a live build's folder.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { buildTask } from "./build-task.js";
import { makeBuildTemp, processStart, removeStaleBuildTemps } from "./build-temp.js";
import { vegaRecords, writeCsv } from "./test-helpers/raw-tables.js";

const tmp = mkdtempSync(join(tmpdir(), "gym-build-temp-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The pid and start time of a process that has exited. */
function deadProcess(): { pid: number; start: string } {
  const child = spawnSync("/bin/sh", ["-c", "echo $$ $(cut -d' ' -f22 /proc/$$/stat)"], { encoding: "utf8" });
  const [pid, start] = child.stdout.trim().split(" ");
  return { pid: Number(pid), start: start! };
}

describe("removeStaleBuildTemps", () => {
  const live = spawn("sleep", ["30"]);
  afterAll(() => live.kill());
  const dead = deadProcess();
  const me = `${process.pid}-${processStart(process.pid)}`;
  test.each<[string, () => string, boolean]>([
    ["a killed build's folder", () => `${dead.pid}-${dead.start}-abc123`, true],
    ["an older-form folder of a process that is gone", () => `${dead.pid}-abc123`, true],
    ["a folder whose pid now belongs to a later process", () => `${process.pid}-1-abc123`, true],
    ["a live build's folder (this process)", () => `${me}-abc123`, false],
    ["a live build's folder (another process)", () => `${live.pid}-${processStart(live.pid!)}-x9`, false],
    ["an older-form folder of a live process", () => `${live.pid}-abc123`, false],
    ["a folder of another output", () => `${dead.pid}-${dead.start}-abc123`, false],
  ])("%s: removed %s", (what, suffix, removed) => {
    const dir = join(tmp, "stale");
    rmSync(dir, { recursive: true, force: true });
    const name = `${what.includes("another output") ? "other" : "pkg"}.tmp-${suffix()}`;
    mkdirSync(join(dir, name, "data", "private"), { recursive: true });
    expect(removeStaleBuildTemps(join(dir, "pkg"))).toEqual(removed ? [join(dir, name)] : []);
    expect(existsSync(join(dir, name))).toBe(!removed);
  });

  test.each([
    ["missing: the previous package is put back", false, true],
    ["there: the moved-aside copy is removed", true, false],
  ])("a killed --force build's <out>.old-* folder, <out> %s", (_, outThere, restored) => {
    const dir = join(tmp, "old");
    rmSync(dir, { recursive: true, force: true });
    const old = join(dir, `pkg.old-${dead.pid}-1765100000000`);
    mkdirSync(join(old, "data"), { recursive: true });
    if (outThere) mkdirSync(join(dir, "pkg", "new"), { recursive: true });
    expect(removeStaleBuildTemps(join(dir, "pkg"))).toEqual([old]);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(join(dir, "pkg", restored ? "data" : "new"))).toBe(true);
  });

  test("makeBuildTemp makes a 0700 folder named for this process, which the cleanup keeps", () => {
    const { tmp: t, mode } = makeBuildTemp(join(tmp, "mine"));
    expect(statSync(t).mode & 0o777).toBe(0o700);
    expect(mode & 0o700).toBe(0o700);
    expect(removeStaleBuildTemps(join(tmp, "mine"))).toEqual([]);
    rmSync(t, { recursive: true });
  });
});

test("buildTask: the temporary folder is private while it exists; a killed build's folder goes at the next build", async () => {
  const out = join(tmp, "pkgs", "penguins");
  const dead = deadProcess();
  const stale = `${out}.tmp-${dead.pid}-${dead.start}-zz9`;
  mkdirSync(join(stale, "data", "private"), { recursive: true });
  const table = writeCsv(join(tmp, "penguins.csv"), vegaRecords("penguins.json"));
  let modeWhileBuilding = 0;
  const spec = { id: "penguins-t", table, target: "species", metric: "accuracy" };
  await buildTask(spec, {
    outDir: out,
    onEvent: (e) => {
      if (e.type === "build-start") modeWhileBuilding = statSync(e.tmpDir).mode & 0o777;
    },
  });
  expect(modeWhileBuilding).toBe(0o700);
  expect(statSync(out).mode & 0o777).toBe(0o777 & ~process.umask());
  expect(readdirSync(join(tmp, "pkgs"))).toEqual(["penguins"]);
}, 120_000);
