// The OpenAI provider against the real replay server on 127.0.0.1 (real HTTP, real `openai` client).
import { afterEach, describe, expect, it } from "vitest";
import {
  LlmAbortedError, LlmAuthError, LlmBadRequestError, LlmBadResponseError, LlmConnectionError, LlmNotFoundError, LlmRateLimitError,
  LlmServerError, LlmTimeoutError,
} from "./errors.js";
import { createOpenAIModel, type RetryEvent } from "./openai-provider.js";
import { replies, startReplayServer, type ReplayScript, type ReplayServer } from "./replay-server.js";
import type { ChatMessage } from "./spec.js";

const servers: ReplayServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function serve(script: ReplayScript) {
  const s = await startReplayServer(script);
  servers.push(s);
  return s;
}
const msgs: ChatMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "hi" },
];
// Small delays so retry tests stay fast; u = 0 makes the backoff exactly base/2.
const fast = { retryBaseDelayMs: 20, retryMaxDelayMs: 100, maxRetries: 3 };

describe("createOpenAIModel", () => {
  it("sends the configured request and maps the answer, keeping raw and provider usage", async () => {
    const s = await serve([replies.text("ok", { usage: { promptTokens: 11, completionTokens: 2 } })]);
    const model = createOpenAIModel({ baseURL: s.baseURL, model: "m1", temperature: 0.3, maxTokens: 77, extraBody: { top_p: 0.9 } });
    const r = await model.chat({ messages: msgs });
    expect(r.text).toBe("ok");
    expect(r.usage).toEqual({ promptTokens: 11, completionTokens: 2, source: "provider" });
    expect(r.finishReason).toBe("stop");
    expect(r.attempts).toBe(1);
    expect((r.raw as { id: string }).id).toBe("chatcmpl-replay-0");
    const body = s.requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: "m1", temperature: 0.3, max_tokens: 77, top_p: 0.9, messages: msgs });
    expect(s.requests[0]!.headers.authorization).toMatch(/^Bearer /);
    // per-request overrides win
    const s2 = await serve([replies.text("ok")]);
    await createOpenAIModel({ baseURL: s2.baseURL }).chat({ messages: msgs, temperature: 0, maxTokens: 5 });
    expect(s2.requests[0]!.body).toMatchObject({ temperature: 0, max_tokens: 5 });
  });

  it("counts tokens offline with the Qwen3 tokenizer when the provider reports no usage", async () => {
    const s = await serve([replies.text("Hello, my dog is cute", { usage: null })]);
    const r = await createOpenAIModel({ baseURL: s.baseURL }).chat({ messages: msgs });
    expect(r.usage.source).toBe("tokenizer");
    // Hand-counted: <|im_start|> system \n sys <|im_end|> \n <|im_start|> user \n hi <|im_end|> \n <|im_start|> assistant \n
    expect(r.usage.promptTokens).toBe(15);
    // Hello | , | my | dog | is | cute
    expect(r.usage.completionTokens).toBe(6);
  });

  it("retries HTTP 500 and then succeeds", async () => {
    const s = await serve([replies.error(500, "boom"), replies.error(503), replies.text("fine")]);
    const events: RetryEvent[] = [];
    const model = createOpenAIModel({ baseURL: s.baseURL, ...fast }, { random: () => 0, onRetry: (e) => events.push(e) });
    const r = await model.chat({ messages: msgs });
    expect(r.text).toBe("fine");
    expect(r.attempts).toBe(3);
    expect(s.requests).toHaveLength(3);
    expect(events.map((e) => [e.error.kind, e.retry, e.delayMs])).toEqual([
      ["server_error", 1, 10],
      ["server_error", 2, 20],
    ]);
  });

  it("gives up after maxRetries with the typed error and the attempt count", async () => {
    const s = await serve(() => replies.error(502, "bad gateway"));
    const model = createOpenAIModel({ baseURL: s.baseURL, ...fast, maxRetries: 2 });
    const err = await model.chat({ messages: msgs }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmServerError);
    expect(err.attempts).toBe(3);
    expect(err.message).toMatch(/HTTP 502.*bad gateway/);
  });

  it("waits for Retry-After on 429 before retrying", async () => {
    const s = await serve([{ kind: "error", status: 429, retryAfterS: 0.4 }, replies.text("after wait")]);
    const events: RetryEvent[] = [];
    const model = createOpenAIModel({ baseURL: s.baseURL, ...fast }, { onRetry: (e) => events.push(e) });
    const r = await model.chat({ messages: msgs });
    expect(r.text).toBe("after wait");
    expect(events[0]!.error).toBeInstanceOf(LlmRateLimitError);
    expect(events[0]!.delayMs).toBe(400);
    expect(s.requests[1]!.receivedAt - s.requests[0]!.receivedAt).toBeGreaterThanOrEqual(390);
  });

  it("does not retry 400, 401 or 404", async () => {
    for (const [status, cls] of [
      [400, LlmBadRequestError],
      [401, LlmAuthError],
      [404, LlmNotFoundError],
    ] as const) {
      const s = await serve([replies.error(status, "nope"), replies.text("never")]);
      const err = await createOpenAIModel({ baseURL: s.baseURL, ...fast }).chat({ messages: msgs }).catch((e) => e);
      expect(err).toBeInstanceOf(cls);
      expect(err.attempts).toBe(1);
      expect(s.requests).toHaveLength(1);
    }
  });

  it("times out a slow answer, and retries a hung one", async () => {
    const s = await serve([replies.slow("too late", 3000)]);
    const t0 = Date.now();
    const err = await createOpenAIModel({ baseURL: s.baseURL, timeoutMs: 200, maxRetries: 0 }).chat({ messages: msgs }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmTimeoutError);
    expect(err.message).toMatch(/within 200 ms.*llm.timeoutMs/);
    expect(Date.now() - t0).toBeLessThan(2000);

    const s2 = await serve([replies.hang(), replies.text("second try", { usage: { promptTokens: 1, completionTokens: 1 } })]);
    const r = await createOpenAIModel({ baseURL: s2.baseURL, timeoutMs: 1000, ...fast }).chat({ messages: msgs });
    expect(r.text).toBe("second try");
    expect(r.attempts).toBe(2);
  });

  it("treats malformed JSON and empty choices as bad responses (retried)", async () => {
    const s = await serve([replies.malformed(), replies.emptyChoices(), replies.text("good")]);
    const events: RetryEvent[] = [];
    const r = await createOpenAIModel({ baseURL: s.baseURL, ...fast }, { onRetry: (e) => events.push(e) }).chat({ messages: msgs });
    expect(r.text).toBe("good");
    expect(events.map((e) => e.error.kind)).toEqual(["bad_response", "bad_response"]);

    const s2 = await serve([replies.malformed()]);
    const err = await createOpenAIModel({ baseURL: s2.baseURL, maxRetries: 0 }).chat({ messages: msgs }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmBadResponseError);
    expect(err.message).toMatch(/not valid JSON/);
    const s3 = await serve([replies.emptyChoices()]);
    const err3 = await createOpenAIModel({ baseURL: s3.baseURL, maxRetries: 0 }).chat({ messages: msgs }).catch((e) => e);
    expect(err3).toBeInstanceOf(LlmBadResponseError);
    expect(err3.message).toMatch(/no choices/);
  });

  it("reports connection errors (dropped connection, nothing listening) after retrying", async () => {
    const s = await serve([replies.drop(), replies.text("reconnected")]);
    expect((await createOpenAIModel({ baseURL: s.baseURL, ...fast }).chat({ messages: msgs })).text).toBe("reconnected");

    const gone = await startReplayServer([]);
    await gone.close();
    const err = await createOpenAIModel({ baseURL: gone.baseURL, ...fast, maxRetries: 1 }).chat({ messages: msgs }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmConnectionError);
    expect(err.attempts).toBe(2);
    expect(err.message).toContain(gone.baseURL);
  });

  it("stops at once when the caller aborts", async () => {
    const s = await serve([replies.hang()]);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const err = await createOpenAIModel({ baseURL: s.baseURL, ...fast }).chat({ messages: msgs, signal: ctl.signal }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmAbortedError);
    expect(s.requests).toHaveLength(1);
  });

  it("keeps at most `concurrency` requests in flight per model instance", async () => {
    const s = await serve(() => ({ kind: "text", text: "x", delayMs: 150, usage: { promptTokens: 1, completionTokens: 1 } }));
    const model = createOpenAIModel({ baseURL: s.baseURL, concurrency: 2 });
    const t0 = Date.now();
    const results = await Promise.all(Array.from({ length: 6 }, () => model.chat({ messages: msgs })));
    const wall = Date.now() - t0;
    expect(results.every((r) => r.text === "x")).toBe(true);
    expect(s.requests).toHaveLength(6);
    expect(s.maxInFlight).toBe(2);
    expect(model.semaphore.inUse).toBe(0);
    // latency excludes the wait for a slot: with 2 in flight, the latencies sum to at most 2 × wall
    // time (≈ 900 ms); counting the queue they would sum to 150+150+300+300+450+450 = 1800 ms.
    expect(results.reduce((n, r) => n + r.latencyMs, 0)).toBeLessThanOrEqual(2 * wall + 5);
  });
});

describe("replay server", () => {
  it("lists its model and rejects unknown routes", async () => {
    const s = await startReplayServer([], { model: "qwen-replay" });
    servers.push(s);
    const models = (await (await fetch(`${s.baseURL}/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0]!.id).toBe("qwen-replay");
    expect((await fetch(`${s.baseURL}/completions`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("answers an exhausted script with a 400 naming the count", async () => {
    const s = await serve([replies.text("one")]);
    const model = createOpenAIModel({ baseURL: s.baseURL, ...fast });
    await model.chat({ messages: msgs });
    await expect(model.chat({ messages: msgs })).rejects.toThrow(/script exhausted: it has 1 replies/);
  });
});
