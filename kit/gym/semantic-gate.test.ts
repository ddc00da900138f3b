import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWorkspace } from "../store/index.js";
import type { QualityReport } from "./check-result.js";
import { loadTask } from "./load-task.js";
import { recordTaskReview } from "./record-review.js";
import { gatePrompt, gateVerdict, metricSmokeTest, parseGateReply, renderGatePrompt, semanticGate } from "./semantic-gate.js";
import { fetchChatModel, startReplayChat } from "./test-helpers/replay-chat.js";
import type { TaskPackage } from "./types.js";

const FIXTURE = join(import.meta.dirname, "test-helpers", "paper-task");
const AXES = ["task_validity", "data_sufficiency", "raw_data_usage", "task_complexity", "data_quality"];
const axes = (scores: number[]) => Object.fromEntries(AXES.map((a, i) => [a, { score: scores[i], note: a }]));
const RECOMMENDED = "Looks fine.\n```json\n" + JSON.stringify({ axes: axes([5, 4, 4, 4, 3]), reasons: ["clean binary task"] }) + "\n```"; // mean 4.0
// The reply says "recommended", but its scores average 3.0: the verdict is the mean's.
const CONDITIONAL = JSON.stringify({ verdict: "recommended", axes: axes([4, 3, 3, 3, 2]), reasons: ["few rows"] });

let task: TaskPackage;
let server: Awaited<ReturnType<typeof startReplayChat>>;
const tmp = mkdtempSync(join(tmpdir(), "gym-gate-"));
beforeAll(async () => {
  task = await loadTask(FIXTURE);
  server = await startReplayChat([RECOMMENDED, CONDITIONAL, "I cannot decide."]);
}, 300_000);
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("parseGateReply: five axes scored 0–5, verdict from their mean", () => {
  test.each([
    [[5, 5, 5, 5, 5], "recommended", 5],
    [[4, 4, 4, 4, 4], "recommended", 4], // mean exactly 4
    [[5, 4, 4, 4, 2.9], "conditional", 3.98],
    [[3, 2, 3, 2, 2.5], "conditional", 2.5], // mean exactly 2.5
    [[3, 2, 3, 2, 2.4], "rejected", 2.48],
    [[0, 0, 0, 0, 0], "rejected", 0],
  ])("scores %j → %s (mean %d)", (scores, verdict, mean) => {
    const r = parseGateReply("prose " + JSON.stringify({ verdict: "recommended", axes: axes(scores), reasons: ["r"] }) + " more");
    expect(r?.verdict).toBe(verdict);
    expect(r?.meanScore).toBeCloseTo(mean, 12);
    expect(gateVerdict(scores)).toBe(verdict);
  });
  test.each([
    ["no json at all"], ['{"verdict": "recommended"}'], ["{broken"],
    [JSON.stringify({ axes: axes([5, 5, 5, 5]) })], // an axis missing
    [JSON.stringify({ axes: axes([5, 5, 5, 5, 7]) })], // out of range
  ])("returns null for %j", (text) => {
    expect(parseGateReply(text)).toBeNull();
  });
});

describe("semanticGate", () => {
  test("the prompt shows the description, raw files, prepare.py, its result, samples, metric.py and a metric smoke test", async () => {
    const smoke = await metricSmokeTest(task);
    expect(smoke).toEqual(["answers scored against themselves: score 1", "sample_submission.csv: score 0.5"]);
    const [system, user] = renderGatePrompt(gatePrompt(task, smoke));
    expect(system!.content).toMatch(/0 \(unusable\) to 5/);
    expect(user!.content).toContain("class ChurnAucScore:");
    expect(user!.content).toContain("answers scored against themselves: score 1");
    expect(system!.content).toMatch(/task_validity.*data_sufficiency.*raw_data_usage.*task_complexity.*data_quality/s);
    expect(user!.content).toContain("raw/customers.csv");
    expect(user!.content).toContain("def prepare(raw: Path, public: Path, private: Path)");
    expect(user!.content).toContain("train rows: 160, test rows: 40");
    expect(user!.content).toContain("customer_id,tenure_months");
  });

  test("without a model the verdict is skipped, never invented", async () => {
    expect(await semanticGate(task, { metricValid: true })).toMatchObject({ verdict: "skipped", accepted: false });
  });

  test("verdicts from a chat-completions server on 127.0.0.1 are stored in the workspace", { timeout: 300_000 }, async () => {
    const model = fetchChatModel(server.url);
    const rec = await semanticGate(task, { model, metricValid: true });
    expect(rec).toMatchObject({ verdict: "recommended", accepted: true, reasons: ["clean binary task"], model: "replay-judge" });
    expect(rec.axes.data_quality).toEqual({ score: 3, note: "data_quality" });
    expect(rec.meanScore).toBe(4);
    const cond = await semanticGate(task, { model, metricValid: true });
    expect(cond).toMatchObject({ verdict: "conditional", accepted: false }); // conditional is rejected
    const junk = await semanticGate(task, { model, metricValid: true });
    expect(junk).toMatchObject({ verdict: "unparseable", accepted: false });
    const sent = server.requests[0] as { messages: { role: string }[]; temperature: number };
    expect(sent.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(sent.temperature).toBe(0);

    const quality: QualityReport = { taskId: task.meta.id, dir: task.dir, passed: true, metricValid: true, checks: [], durationMs: 1 };
    const ws = await openWorkspace(join(tmp, "ws"));
    try {
      await recordTaskReview(ws, task, { quality, semantic: rec });
      await recordTaskReview(ws, task, { semantic: cond });
      const tasks = await ws.query("SELECT task_id, metric, higher_is_better FROM tasks");
      expect(tasks).toEqual([{ task_id: "paper-task", metric: "ChurnAucScore", higher_is_better: true }]);
      const reviews = await ws.query<{ kind: string; verdict: string; accepted: boolean }>("SELECT kind, verdict, accepted FROM task_reviews ORDER BY created_at, kind");
      expect(reviews).toEqual([
        { kind: "quality", verdict: "pass", accepted: true },
        { kind: "semantic", verdict: "recommended", accepted: true },
        { kind: "semantic", verdict: "conditional", accepted: false },
      ]);
    } finally {
      ws.close();
    }
  });
});
