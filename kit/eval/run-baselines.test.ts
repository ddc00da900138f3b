import { describe, expect, test } from "vitest";
import { loadTask, resolveTask } from "../gym/index.js";
import { probeBwrap } from "../sandbox/index.js";
import { TINY_TASK_DIR } from "../sandbox/test-helpers.js";
import { normalizedScore, runBaselines } from "./index.js";

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP run-baselines test: ${noBwrap}`);

describe.skipIf(!!noBwrap)("runBaselines in the real sandbox", () => {
  test("tiny task: the reference model beats the constant prediction", async () => {
    const task = await loadTask(TINY_TASK_DIR);
    const b = await runBaselines(task, { limits: { timeoutS: 60, memoryMb: 1024, cpus: 1 } });
    expect(b.records.trivial.status, b.records.trivial.stderrTail).toBe("success");
    expect(b.records.reference.status, b.records.reference.stderrTail).toBe("success");
    const hib = task.meta.higherIsBetter;
    expect(hib ? b.reference! > b.trivial! : b.reference! < b.trivial!).toBe(true);
    expect(normalizedScore(b.reference, { trivial: b.trivial!, reference: b.reference! }, hib)).toBe(1);
    expect(normalizedScore(b.trivial, { trivial: b.trivial!, reference: b.reference! }, hib)).toBe(0);
  });

  // Date and text columns get features (days/year/month; TF-IDF): without them both tasks had no reference.
  test.each(["co2-concentration", "spam-assassin"])("%s: a reference from date or text columns beats the constant", async (id) => {
    const task = await resolveTask(id);
    const b = await runBaselines(task, { limits: { timeoutS: 120, memoryMb: 2048, cpus: 1 } });
    expect(b.records.reference.status, b.records.reference.stderrTail).toBe("success");
    expect(task.meta.higherIsBetter ? b.reference! > b.trivial! : b.reference! < b.trivial!).toBe(true);
  });

  test("audio task (spoken-digits): the MFCC reference beats the majority class", async () => {
    const task = await resolveTask("spoken-digits");
    const b = await runBaselines(task, { limits: { timeoutS: 120, memoryMb: 2048, cpus: 2 } });
    expect(b.records.reference.status, b.records.reference.stderrTail).toBe("success");
    expect(b.trivial!).toBeLessThan(0.15); // ten balanced digits: the majority class is right about 1 time in 10
    expect(b.reference!).toBeGreaterThan(0.5);
  }, 300_000);
});
