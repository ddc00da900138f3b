import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatRequest, ChatResult, LanguageModel } from "../../llm/spec.js";

/** A chat-completions server on 127.0.0.1 that replays scripted replies in order and records requests. */
export async function startReplayChat(replies: readonly string[]): Promise<{ url: string; requests: unknown[]; close: () => Promise<void> }> {
  const requests: unknown[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests.push(JSON.parse(body || "{}"));
      const text = replies[Math.min(next++, replies.length - 1)] ?? "";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({
        id: `replay-${next}`, object: "chat.completion", model: "replay-judge", created: 0,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: text } }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

/** A minimal LanguageModel over the chat-completions API with global fetch (for tests only). */
export function fetchChatModel(baseUrl: string, model = "replay-judge"): LanguageModel {
  return {
    provider: "test-fetch",
    modelId: model,
    async chat(req: ChatRequest): Promise<ChatResult> {
      const t0 = Date.now();
      const r = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST", headers: { "content-type": "application/json" }, signal: req.signal,
        body: JSON.stringify({ model, messages: req.messages, temperature: req.temperature }),
      });
      const j = (await r.json()) as { model: string; choices: { message: { content: string }; finish_reason: string }[]; usage: { prompt_tokens: number; completion_tokens: number } };
      return {
        text: j.choices[0]!.message.content, model: j.model, latencyMs: Date.now() - t0, finishReason: j.choices[0]!.finish_reason,
        usage: { promptTokens: j.usage.prompt_tokens, completionTokens: j.usage.completion_tokens, source: "provider" },
      };
    },
  };
}
