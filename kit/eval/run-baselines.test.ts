import { describe, expect, test } from "vitest";
import { loadTask } from "../gym/index.js";
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
});
