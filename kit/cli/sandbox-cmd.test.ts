import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
});
