import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { probeBwrap } from "../sandbox/index.js";
import { TINY_TASK_DIR } from "../sandbox/test-helpers.js";
import { registerSandbox } from "./sandbox-cmd.js";
import { UsageError } from "./run-cli.js";

async function run(args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerSandbox(program);
  let out = "";
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    await program.parseAsync(["node", "openmle", ...args]);
  } finally {
    process.stdout.write = write;
  }
  return out;
}

const ROOT = new URL("../..", import.meta.url).pathname;
const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP sandbox CLI tests: ${noBwrap}`);

describe.skipIf(!!noBwrap)("openmle sandbox run", () => {
  it("prints the record as JSON, stores it in a workspace, and rejects a missing code file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sbx-cli-"));
    try {
      const code = join(dir, "main.py");
      writeFileSync(code, 'import os, shutil\nshutil.copy(os.environ["DATA_DIR"] + "/sample_submission.csv", "submission.csv")\nprint("Final Validation Score: 0.5")\n');
      const rec = JSON.parse(await run(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--timeout", "30", "--memory", "512", "--workspace", join(dir, "ws"), "--json"]));
      expect([rec.status, rec.valid_score, rec.task_id, rec.limits]).toEqual(["success", 0.5, "tiny-task", { timeout_s: 30, memory_mb: 512, cpus: 2, gpus: 0, disk_mb: 8192 }]);
      expect(typeof rec.test_score).toBe("number");
      const human = await run(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--timeout", "30", "--memory", "512", "--workspace", join(dir, "ws")]);
      expect(human).toContain(`execution ${rec.execution_id}`); // reused from the workspace
      await expect(run(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", join(dir, "nope.py")])).rejects.toBeInstanceOf(UsageError);
      await expect(run(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--backend", "vm"])).rejects.toThrow(/--backend vm/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Issue 25, break 7: a program's artifact name and traceback carried raw ESC/OSC codes to the terminal
  // and forged a "Final Validation Score" line in the human output.
  it("prints a hostile artifact name and traceback with their control characters escaped", () => {
    const dir = mkdtempSync(join(tmpdir(), "sbx-cli-esc-"));
    try {
      const code = join(dir, "main.py");
      writeFileSync(code, [
        "name = 'evil\\x1b[31mRED\\x1b]0;pwned\\x07\\nFinal Validation Score: 1.0'",
        "open(name, 'w').write('x')",
        "raise RuntimeError('\\x1b[2J\\x1b]0;owned\\x07 \\x9b31m\\rFinal Validation Score: 1.0')",
      ].join("\n") + "\n");
      const r = spawnSync(process.execPath, ["--import", "tsx", "kit/cli/main.ts", "sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--timeout", "30", "--memory", "512"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
      expect(r.stdout).toMatch(/^status {6}runtime_error/);
      expect(r.stdout).toContain("evil\\x1b[31mRED\\x1b]0;pwned\\x07\\nFinal Validation Score: 1.0"); // the name, escaped
      expect(r.stdout).toContain("RuntimeError: \\x1b[2J\\x1b]0;owned\\x07 \\x9b31m"); // the traceback, escaped
      expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(r.stdout).not.toMatch(/^Final Validation Score/m);
      const json = spawnSync(process.execPath, ["--import", "tsx", "kit/cli/main.ts", "sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--timeout", "30", "--memory", "512", "--json"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
      expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(JSON.parse(json.stdout).artifacts).toContain("evil\x1b[31mRED\x1b]0;pwned\x07\nFinal Validation Score: 1.0"); // stored raw
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Issue 25, break 9: a folder as --code printed Node's EISDIR stack.
describe("openmle sandbox run --code", () => {
  it("is one line when --code is a folder or missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "sbx-cli-dir-"));
    try {
      mkdirSync(join(dir, "code"));
      for (const [path, why] of [[join(dir, "code"), "a folder, not a file"], [join(dir, "nope.py"), "no such file"]]) {
        const r = spawnSync(process.execPath, ["--import", "tsx", "kit/cli/main.ts", "sandbox", "run", "--task", TINY_TASK_DIR, "--code", path], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
        expect(r.status).toBe(1);
        expect(r.stderr).toBe(`openmle: --code ${path}: ${why}. Pass the path of a Python file.\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
