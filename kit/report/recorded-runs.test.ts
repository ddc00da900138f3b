// openRecordedRuns (issue 59.6): only plain names of folders under data/recorded-runs, and no temporary
// workspace left behind: removed when closed, and one of a killed process removed at the next open.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportError } from "./errors.js";
import { openRecordedRuns } from "./recorded-runs.js";

// A private TMPDIR (os.tmpdir() reads it on every call; each test file runs in its own process).
const outer = process.env.TMPDIR;
const tmp = mkdtempSync(join(tmpdir(), "recorded-runs-test-"));
beforeAll(() => void (process.env.TMPDIR = tmp));
afterAll(() => {
  process.env.TMPDIR = outer;
  rmSync(tmp, { recursive: true, force: true });
});
const temps = () => readdirSync(tmp).filter((e) => e.startsWith("openmle-recorded-"));

describe("openRecordedRuns", () => {
  it.each([
    ["a ../ name", "../recorded-runs/cars", /recorded runs "\.\.\/recorded-runs\/cars": pass the plain name of a folder under .*data\/recorded-runs \(known: .*cars/],
    ["an absolute path", "/etc", /recorded runs "\/etc": pass the plain name/],
    ["a hidden name", ".git", /pass the plain name/],
    ["a dotted escape", "cars..", /pass the plain name/],
    ["a name that is not there", "no-such-run", /no recorded runs "no-such-run" under .*known .*learning-armA/],
  ])("refuses %s in one line, creating nothing", async (_, name, message) => {
    const e = await openRecordedRuns(name).catch((err: Error) => err);
    expect(e).toBeInstanceOf(ReportError);
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain("\n");
    expect(temps()).toEqual([]);
  });

  it("removes its temporary workspace when closed, and a dead process's at the next open", async () => {
    const dead = spawnSync("true").pid!; // exited: its pid names no process now
    mkdirSync(join(tmp, `openmle-recorded-${dead}-cars-abc123`, "ws"), { recursive: true });
    const live = join(tmp, `openmle-recorded-${process.ppid}-cars-def456`); // the parent of this test lives on
    mkdirSync(live);
    const ws = await openRecordedRuns("cars");
    const mine = temps().filter((e) => e.startsWith(`openmle-recorded-${process.pid}-cars-`));
    expect(mine).toHaveLength(1);
    expect(temps().sort()).toEqual([...mine, `openmle-recorded-${process.ppid}-cars-def456`].sort());
    expect((await ws.query<{ n: number }>("SELECT count(*) AS n FROM runs"))[0]!.n).toBeGreaterThan(0);
    ws.close();
    ws.close(); // twice is harmless
    expect(existsSync(join(tmp, mine[0]!))).toBe(false);
    expect(existsSync(live)).toBe(true);
    rmSync(live, { recursive: true });
  });
});
