// Issue 17 point 3: the persistent scorer gives the per-node scorer's results on every built-in task
// and the bundled fixtures, and restarts its sandbox after a crash, a timeout, the memory cap and a
// changed metric; a submission that leaves state behind (a module global, a file, a process)
// does not change the next score.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listBuiltinTasks, loadTask, resolveTask, type TaskMeta, type TaskPackage } from "../gym/index.js";
import { probeBwrap } from "./local-executor.js";
import { persistentScorer, type ScorerEvent } from "./persistent-scorer.js";
import { sandboxedScorer } from "./sandboxed-scorer.js";
import { copyTask, TINY_TASK_DIR } from "./test-helpers.js";

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP persistent scorer tests: ${noBwrap}`);
const GYM_FIXTURES = join(dirname(fileURLToPath(import.meta.url)).replace(/\/dist\/kit\/sandbox$/, "/kit/sandbox"), "..", "gym", "test-helpers");

/** Header + the first half of the answers' rows + the second half of the sample's: a middling score. */
function mixed(task: TaskPackage, out: string): string {
  const ans = readFileSync(join(task.privateDir, "test_answer.csv"), "utf8").trimEnd().split("\n");
  const sample = readFileSync(join(task.publicDir, task.meta.files.sampleSubmission), "utf8").trimEnd().split("\n");
  const half = Math.floor((ans.length - 1) / 2);
  writeFileSync(out, [...ans.slice(0, 1 + half), ...sample.slice(1 + half)].join("\n") + "\n");
  return out;
}

describe.skipIf(!!noBwrap)("persistent scorer", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "sbx-pscore-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("scores like the per-node scorer on every built-in task and the bundled fixtures", async () => {
    const tasks = [
      ...(await Promise.all(listBuiltinTasks().map((t) => resolveTask(t.id)))),
      ...(await Promise.all([TINY_TASK_DIR, join(GYM_FIXTURES, "paper-task"), join(GYM_FIXTURES, "house-prices-style")].map((d) => loadTask(d)))),
    ];
    const persistent = persistentScorer();
    const perNode = sandboxedScorer();
    const events: ScorerEvent[] = [];
    const watched = persistentScorer({ onEvent: (e) => events.push(e) });
    try {
      for (const task of tasks) {
        // The sample submission and a half-right one (both valid on every task), plus an invalid one on the fixture.
        const subs = [join(task.publicDir, task.meta.files.sampleSubmission), mixed(task, join(dir, `${task.meta.id}-mixed.csv`))];
        if (task.dir === TINY_TASK_DIR) subs.push(join(task.publicDir, "test.csv"));
        const got = [];
        for (const s of subs) got.push(await persistent(task, s));
        const want = await Promise.all(subs.map((s) => perNode(task, s)));
        expect(got, task.meta.id).toEqual(want);
        expect(got.slice(0, 2).every((r) => r.ok), task.meta.id).toBe(true);
      }
      // One sandbox per task, started once, kept across submissions.
      const tiny = tasks.find((t) => t.dir === TINY_TASK_DIR)!;
      for (let i = 0; i < 3; i++) await watched(tiny, join(tiny.publicDir, "sample_submission.csv"));
      expect(events.map((e) => `${e.type} ${e.reason}`)).toEqual(["scorer-start first"]);
    } finally {
      await Promise.all([persistent.close(), watched.close()]);
    }
    expect(events.at(-1)).toMatchObject({ type: "scorer-stop", reason: "closed" });
  }, 300_000);

  describe("restarts and isolation", () => {
    let meta: TaskMeta;
    beforeAll(async () => {
      meta = (await loadTask(TINY_TASK_DIR)).meta;
    });
    /**
     * A metric driven by the submission's first label: score = 100 × how many scores this interpreter
     * state has seen + 10 if /tmp/poison exists + the number of other processes in the namespace
     * + 1000 if the answers are empty. `poison` leaves a module global, a file in /tmp and a
     * sleeping process behind, and empties the answers in place.
     */
    const metric = (scale: number) => `import os, signal, time
SEEN = {"n": 0}
class Driven:
    def __init__(self, value="label", higher_is_better=True):
        self.value = value
    def validate_submission(self, submission, ground_truth):
        pass
    def evaluate(self, y_true, y_pred):
        cmd = str(y_pred[self.value].iloc[0])
        SEEN["n"] += 1
        if cmd == "crash":
            os.kill(os.getpid(), signal.SIGKILL)
        if cmd == "hang":
            time.sleep(600)
        if cmd == "hog":
            b = b"x" * (2 << 30)
        if cmd == "poison":
            open("/tmp/poison", "w").write("x")
            y_true.drop(y_true.index, inplace=True)
            if os.fork() == 0:
                os.setsid()
                time.sleep(600)
        others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid())]
        return ${scale} * SEEN["n"] + 10 * os.path.exists("/tmp/poison") + len(others) + 1000 * (len(y_true) == 0)
`;
    const sub = (cmd: string) => {
      const f = join(dir, `${cmd}.csv`);
      writeFileSync(f, readFileSync(join(TINY_TASK_DIR, "data", "private", "test_answer.csv"), "utf8").replace(/^(id,label\n[^,]+),[^\n]*/, `$1,${cmd}`));
      return f;
    };

    it("a submission's leftovers do not reach the next score; crash, timeout and memory cap restart the sandbox", async () => {
      const task = await loadTask(copyTask(join(dir, "driven"), { "utils/metric.py": metric(100) }, meta));
      const events: string[] = [];
      const score = persistentScorer({ limits: { timeoutS: 5, memoryMb: 512 }, onEvent: (e) => events.push(`${e.type} ${e.reason}`) });
      try {
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 100 });
        expect(await score(task, sub("poison"))).toEqual({ ok: true, score: 1111 });
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 100 });
        expect(events).toEqual(["scorer-start first"]);
        await expect(score(task, sub("crash"))).rejects.toThrow(/scoring sandbox produced no result/);
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 100 });
        expect(await score(task, sub("hang"))).toEqual({ ok: false, kind: "error", message: "the task's metric ran past the scorer's 5 s limit and was killed" });
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 100 });
        expect(await score(task, sub("hog"))).toEqual({ ok: false, kind: "error", message: "the task's metric used more than the scorer's 512 MiB memory cap and was killed" });
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 100 });
        expect(events).toEqual([
          "scorer-start first", "scorer-stop crash", "scorer-start restart", "scorer-stop timeout", "scorer-start restart", "scorer-stop memory", "scorer-start restart",
        ]);
      } finally {
        await score.close();
      }
    }, 120_000);

    it("a changed metric (content hash) starts a new sandbox", async () => {
      const task = await loadTask(copyTask(join(dir, "changing"), { "utils/metric.py": metric(100) }, meta));
      const events: string[] = [];
      const score = persistentScorer({ onEvent: (e) => events.push(`${e.type} ${e.reason}`) });
      try {
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 100 });
        writeFileSync(join(task.dir, "utils", "metric.py"), metric(200));
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 200 });
        expect(await score(task, sub("ok"))).toEqual({ ok: true, score: 200 });
        writeFileSync(join(task.dir, "utils", "metric.py"), "raise ImportError('broken on purpose')\n");
        await expect(score(task, sub("ok"))).rejects.toThrow(/broken on purpose/);
        expect(events).toEqual(["scorer-start first", "scorer-stop changed", "scorer-start changed", "scorer-stop changed", "scorer-start changed", "scorer-stop load"]);
      } finally {
        await score.close();
      }
    }, 120_000);
  });
});
