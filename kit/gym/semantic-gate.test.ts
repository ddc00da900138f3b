import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWorkspace } from "../store/index.js";
import type { QualityReport } from "./check-result.js";
import { loadTask } from "./load-task.js";
import { recordTaskReview } from "./record-review.js";
import { gatePrompt, parseGateReply, renderGatePrompt, semanticGate } from "./semantic-gate.js";
import { fetchChatModel, startReplayChat } from "./test-helpers/replay-chat.js";
import type { TaskPackage } from "./types.js";

const FIXTURE = join(import.meta.dirname, "test-helpers", "paper-task");
const axes = (ok: boolean) => Object.fromEntries(["task_validity", "data_sufficiency", "raw_data_usage", "task_complexity", "data_quality"].map((a) => [a, { ok, note: a }]));
const RECOMMENDED = "Looks fine.\n```json\n" + JSON.stringify({ verdict: "recommended", axes: axes(true), reasons: ["clean binary task"] }) + "\n```";
const CONDITIONAL = JSON.stringify({ verdict: "Conditional", axes: axes(false), reasons: ["few rows"] });

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

describe("parseGateReply", () => {
  test.each([
    [RECOMMENDED, "recommended"],
    [CONDITIONAL, "conditional"],
    ['prose {"verdict": "rejected", "reasons": ["leak"]} more prose', "rejected"],
  ])("reads the verdict from %#", (text, verdict) => {
    expect(parseGateReply(text)?.verdict).toBe(verdict);
  });
  test.each([["no json at all"], ['{"verdict": "maybe"}'], ["{broken"]])("returns null for %j", (text) => {
    expect(parseGateReply(text)).toBeNull();
  });
});

describe("semanticGate", () => {
  test("the prompt shows the description, raw files, prepare.py, its result and samples", () => {
    const [system, user] = renderGatePrompt(gatePrompt(task));
    expect(system!.content).toMatch(/task_validity.*data_sufficiency.*raw_data_usage.*task_complexity.*data_quality/s);
    expect(user!.content).toContain("raw/customers.csv");
    expect(user!.content).toContain("def prepare(raw: Path, public: Path, private: Path)");
    expect(user!.content).toContain("train rows: 160, test rows: 40");
    expect(user!.content).toContain("customer_id,tenure_months");
  });

  test("without a model the verdict is skipped, never invented", async () => {
    expect(await semanticGate(task, { metricValid: true })).toMatchObject({ verdict: "skipped", accepted: false });
  });

  test("verdicts from a chat-completions server on 127.0.0.1 are stored in the workspace", async () => {
    const model = fetchChatModel(server.url);
    const rec = await semanticGate(task, { model, metricValid: true });
    expect(rec).toMatchObject({ verdict: "recommended", accepted: true, reasons: ["clean binary task"], model: "replay-judge" });
    expect(rec.axes.data_quality).toEqual({ ok: true, note: "data_quality" });
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
