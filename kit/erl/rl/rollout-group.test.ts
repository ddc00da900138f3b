// A rollout group reads and removes a record's job folder only when its own pool made it (issue 59 review,
// keyed-worker-workdir: a queue worker's record named a folder on the client's host, which the group deleted).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../../gym/index.js";
import { defaultGrammarParams } from "../../policy/index.js";
import type { ExecutionRecord } from "../../sandbox/index.js";
import { TINY_TASK_DIR } from "../../sandbox/test-helpers.js";
import { createRng } from "../../util/rng.js";
import { runGroup } from "./rollout-group.js";

let task: TaskPackage;
let dir: string;
let ids = 0;
beforeAll(async () => {
  task = await loadTask(TINY_TASK_DIR);
  dir = mkdtempSync(join(tmpdir(), "rollout-group-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder holding a copy of the sample submission (a hack, when it is read) and a file that must survive. */
function folder(path: string): string {
  mkdirSync(path, { recursive: true });
  copyFileSync(join(task.publicDir, task.meta.files.sampleSubmission), join(path, "submission.csv"));
  writeFileSync(join(path, "thesis.tex"), "years of work");
  return path;
}

/** One rollout whose execution returns a successful record naming `workDir` (no submissionPrint). */
async function rollout(workDir: string, jobsDir?: string) {
  const record = (): ExecutionRecord =>
    ({ executionId: `e${++ids}`, status: "success", workDir, startedAt: new Date(), endedAt: new Date() }) as never;
  const g = await runGroup(
    {
      groupId: "g", task, operator: "draft", parents: [], parentTestScores: [], params: defaultGrammarParams(), version: 0,
      size: 1, rng: createRng(7),
    },
    { execute: async () => record(), limits: { timeoutS: 30, memoryMb: 512 }, runId: "r", now: Date.now, ...(jobsDir ? { jobsDir } : {}) },
  );
  return g.rollouts[0]!.hack;
}

describe("runGroup's submission check on a record's job folder", () => {
  it("reads and removes a folder right inside the runner's jobsDir", async () => {
    const jobsDir = join(dir, "jobs-own");
    const own = folder(join(jobsDir, "e-own"));
    expect(await rollout(own, jobsDir)).toBe("sample_submission");
    expect(existsSync(own)).toBe(false);
  });

  it.each([
    ["elsewhere on the host", (jobs: string) => [folder(join(dir, "precious-1")), jobs]],
    ["anywhere, when the runner has no jobsDir (a queue's records)", () => [folder(join(dir, "precious-2")), undefined]],
    ["inside jobsDir by `..`", (jobs: string) => [join(jobs, "..", "precious-3"), jobs, folder(join(dir, "precious-3"))]],
    ["that is jobsDir itself", (jobs: string) => [jobs, jobs]],
    ["deeper inside jobsDir", (jobs: string) => [folder(join(jobs, "a", "b")), jobs]],
    ["a link inside jobsDir to a folder elsewhere", (jobs: string) => {
      const target = folder(join(dir, "precious-4"));
      mkdirSync(jobs, { recursive: true });
      symlinkSync(target, join(jobs, "e-link"));
      return [join(jobs, "e-link"), jobs, target];
    }],
  ])("never touches a folder %s", async (_, make) => {
    const jobs = join(dir, `jobs-${++ids}`);
    folder(jobs);
    const [workDir, jobsDir, real = workDir] = make(jobs) as [string, string | undefined, string?];
    expect(await rollout(workDir!, jobsDir)).toBeNull();
    expect(existsSync(join(real, "thesis.tex"))).toBe(true);
  });
});
