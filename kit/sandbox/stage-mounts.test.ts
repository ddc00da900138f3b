import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTask } from "../gym/index.js";
import { probeBwrap } from "./local-executor.js";
import { runSandbox } from "./run-sandbox.js";
import { sandboxHostUser, stagingPoint } from "../jail/index.js";
import { program, TINY_TASK_DIR } from "./test-helpers.js";

const noBwrap = probeBwrap();
const user = process.getuid?.() === 0 ? sandboxHostUser() : null;

describe.skipIf(!!noBwrap || !user)("staging for the unprivileged sandbox user", () => {
  it("a private TMPDIR (mode 0700, as mkdtemp makes) still runs jobs: the staging point falls back to /tmp", async () => {
    const priv = mkdtempSync(join(tmpdir(), "sbx-private-"));
    expect(statSync(priv).mode & 0o777).toBe(0o700);
    const old = process.env.TMPDIR;
    process.env.TMPDIR = priv;
    try {
      expect(stagingPoint(user!)).toBe("/tmp/openmle-stage");
      const rec = await runSandbox({ task: await loadTask(TINY_TASK_DIR), code: program("success"), limits: { timeoutS: 30, memoryMb: 512, cpus: 1 } });
      expect([rec.status, rec.errorSignature]).toEqual(["success", null]);
    } finally {
      if (old === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = old;
      rmSync(priv, { recursive: true, force: true });
    }
  });
});
