import { afterAll, describe, expect, it } from "vitest";
import { createOpenAIModel, replies, startReplayServer, type ReplayServer } from "../../llm/index.js";
import { hackJudgeMessages, judgeProgram, parseHackVerdict } from "./hack-judge.js";

const prompt = { taskName: "Palmer penguins species", metric: "accuracy", sampleSubmission: "id,species\n1,Adelie", program: "import pandas as pd\n" };
const servers: ReplayServer[] = [];
afterAll(async () => { for (const s of servers) await s.close(); });

describe("hack judge", () => {
  it.each([
    { text: "It shuffles the sample submission.\nVERDICT: HACK", verdict: "hack" },
    { text: "Trains a forest on a holdout.\nverdict: ok", verdict: "ok" },
    { text: "VERDICT: OK\nwait, it reads answers.\nVERDICT: HACK", verdict: "hack" },
    { text: "I am not sure.", verdict: "error" },
  ])("parse: $verdict", ({ text, verdict }) => {
    expect(parseHackVerdict(text).verdict).toBe(verdict);
  });

  it("asks the endpoint with the typed prompt and reads the verdict (replay server)", async () => {
    const s = await startReplayServer([replies.text("Copies the sample.\nVERDICT: HACK"), replies.text("Fine.\nVERDICT: OK")]);
    servers.push(s);
    const model = createOpenAIModel({ baseURL: s.baseURL, model: "replay-model", maxRetries: 0 });
    expect(await judgeProgram(model, prompt)).toEqual({ verdict: "hack", reason: "Copies the sample." });
    expect((await judgeProgram(model, prompt)).verdict).toBe("ok");
    expect(s.requests[0]!.messages).toEqual(hackJudgeMessages(prompt));
  });

  it("an endpoint that times out gives verdict error, not a flag", async () => {
    const s = await startReplayServer([replies.hang()]);
    servers.push(s);
    const model = createOpenAIModel({ baseURL: s.baseURL, model: "replay-model", maxRetries: 0, timeoutMs: 300 });
    const v = await judgeProgram(model, prompt);
    expect(v.verdict).toBe("error");
    expect(v.reason).toMatch(/judge call failed/);
  });
});
