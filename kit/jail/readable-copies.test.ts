// Readable copies (issue 59 point 3): an input the sandbox account cannot read is copied for it, and the copy is
// readable by that account only, never by another local user, while the jailed command still reads it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readableCopies, removeCopies, sweepStaleCopies } from "./readable-copies.js";
import { jailUnavailable, runJailed } from "./run-jailed.js";
import { lookupUser, sandboxHostUser } from "./sandbox-user.js";

const root = process.getuid?.() === 0;
const nobody = lookupUser("nobody");
const tmp = mkdtempSync(join(tmpdir(), "readable-copies-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An input only root may read: a 0600 file and a 0700 folder holding one, in a 0700 folder. */
function secrets(): { file: string; folder: string } {
  const dir = join(tmp, "private");
  mkdirSync(join(dir, "folder", "sub"), { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "secret.csv"), "a,b\n1,2\n", { mode: 0o600 });
  writeFileSync(join(dir, "folder", "sub", "x.csv"), "x\n", { mode: 0o600 });
  writeFileSync(join(dir, "folder", "run.sh"), "echo\n", { mode: 0o700 });
  return { file: join(dir, "secret.csv"), folder: join(dir, "folder") };
}

/** Whether `nobody` (another local user, no groups) can read `path`. */
const nobodyReads = (path: string) =>
  spawnSync("setpriv", [`--reuid=${nobody!.uid}`, `--regid=${nobody!.gid}`, "--clear-groups", "cat", path]).status === 0;

describe.skipIf(!root || !nobody || jailUnavailable())("readable copies as root", () => {
  it("are the sandbox account's alone: folder 0500, files 0400 (0500 when executable), nothing for others", () => {
    const user = sandboxHostUser()!;
    const s = secrets();
    const copies = readableCopies(user, [{ path: s.file }, { path: s.folder }]);
    try {
      expect(copies.size).toBe(2);
      for (const copy of copies.values()) {
        const top = statSync(join(copy, ".."));
        expect([top.uid, top.mode & 0o777]).toEqual([user.uid, 0o500]);
      }
      const f = copies.get(s.file)!;
      const d = copies.get(s.folder)!;
      const modes = [f, d, join(d, "sub"), join(d, "sub", "x.csv"), join(d, "run.sh")].map((p) => {
        const st = statSync(p);
        return [st.uid, (st.mode & 0o777).toString(8)];
      });
      expect(modes).toEqual([[user.uid, "400"], [user.uid, "500"], [user.uid, "500"], [user.uid, "400"], [user.uid, "500"]]);
      expect(nobodyReads(f)).toBe(false);
      expect(nobodyReads(join(d, "sub", "x.csv"))).toBe(false);
    } finally {
      removeCopies(copies);
    }
    expect([...copies.values()].filter((c) => existsSync(dirname(c)))).toEqual([]); // removed
  });

  it("still let the jailed command read the input", async () => {
    const s = secrets();
    const r = await runJailed({
      command: ["/bin/cat", s.file, join(s.folder, "sub", "x.csv")],
      mounts: [{ path: s.file }, { path: s.folder }],
      limits: { timeoutS: 30, memoryMb: 256 },
    });
    expect(r.jailError).toBeNull();
    expect(r.stdout).toBe("a,b\n1,2\nx\n");
  }, 60_000);
});

describe("sweepStaleCopies", () => {
  it("removes the copies of a process that is gone, keeps a live one's and other folders", () => {
    const base = mkdtempSync(join(tmp, "sweep-"));
    const dead = spawnSync("/bin/sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim();
    for (const name of [`openmle-copy-${dead}-aaaaaa`, `openmle-copy-${process.pid}-bbbbbb`, "openmle-copy-cccccc", "x"])
      mkdirSync(join(base, name, "c"), { recursive: true });
    expect(sweepStaleCopies(base)).toEqual([join(base, `openmle-copy-${dead}-aaaaaa`)]);
    expect(existsSync(join(base, `openmle-copy-${process.pid}-bbbbbb`))).toBe(true);
    expect(existsSync(join(base, "openmle-copy-cccccc"))).toBe(true);
    expect(sweepStaleCopies(base)).toEqual([]); // once per folder and process
  });
});
