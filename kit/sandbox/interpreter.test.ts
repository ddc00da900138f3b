import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTask } from "../gym/index.js";
import { interpreterPrefix, sandboxPython } from "../jail/index.js";
import { LocalExecutor, probeBwrap } from "./local-executor.js";
import { runSandbox } from "./run-sandbox.js";
import { program, TINY_TASK_DIR } from "./test-helpers.js";

describe("the sandbox interpreter setting", () => {
  it("setting, else OPENMLE_PYTHON, else /usr/bin/python3", () => {
    const old = process.env.OPENMLE_PYTHON;
    try {
      delete process.env.OPENMLE_PYTHON;
      expect(sandboxPython()).toBe("/usr/bin/python3");
      process.env.OPENMLE_PYTHON = "/opt/x/bin/python";
      expect(sandboxPython()).toBe("/opt/x/bin/python");
      expect(sandboxPython("/opt/y/bin/python")).toBe("/opt/y/bin/python");
    } finally {
      if (old === undefined) delete process.env.OPENMLE_PYTHON;
      else process.env.OPENMLE_PYTHON = old;
    }
  });
  it("a system interpreter needs no extra mount", () => {
    expect(interpreterPrefix("/usr/bin/python3")).toBeNull();
  });
});

// Issue 16 point 10: the devcontainer's ML stack lives in a virtualenv under /opt, which bubblewrap
// never mounted, so every job would have run Debian's bare python3.
const venv = `/opt/openmle-test-venv-${process.pid}`;
const made = !probeBwrap() && spawnSync("/usr/bin/python3", ["-m", "venv", "--system-site-packages", "--without-pip", venv]).status === 0;

describe.skipIf(!made)("a job under a virtualenv in /opt (--system-site-packages)", () => {
  afterAll(() => rmSync(venv, { recursive: true, force: true }));
  it("runs with the venv's interpreter, imports a module only the venv has and the system's sklearn", async () => {
    expect(interpreterPrefix(join(venv, "bin", "python"))).toBe(venv);
    const lib = join(venv, "lib");
    const site = join(lib, readdirSync(lib).find((d) => d.startsWith("python"))!, "site-packages");
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, "openmle_venv_probe.py"), "MARK = 'from-the-venv'\n");
    const code = `import sys, sklearn, openmle_venv_probe\nprint("prefix", sys.prefix, openmle_venv_probe.MARK)\n${program("success")}`;
    const rec = await runSandbox({
      task: await loadTask(TINY_TASK_DIR), code, limits: { timeoutS: 60, memoryMb: 1024, cpus: 1 },
      executor: new LocalExecutor({ python: join(venv, "bin", "python") }),
    });
    expect([rec.status, rec.errorSignature], rec.stderrTail).toEqual(["success", null]);
    expect(rec.stdoutTail).toContain(`prefix ${venv} from-the-venv`);
  });
});
