/**
 * A real OpenAI-compatible chat-completions server on 127.0.0.1 that replays scripted replies:
 * for tests, notebooks and benchmarks that must run without a model. It speaks
 * POST /v1/chat/completions and GET /v1/models, records every request it receives, and can
 * simulate HTTP errors, 429 with Retry-After, slow or hanging answers, dropped connections,
 * malformed JSON, empty choices and missing usage.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { countChatTokens, countTextTokens } from "./qwen3-tokens.js";
import type { ChatMessage } from "./spec.js";

/** One scripted answer. Every kind may wait `delayMs` before answering. */
export type ReplayReply =
  | {
      readonly kind: "text";
      readonly text: string;
      /** Reported usage; null omits the field; absent: counted with the Qwen3 tokenizer. */
      readonly usage?: { readonly promptTokens: number; readonly completionTokens: number } | null;
      readonly finishReason?: string;
      readonly delayMs?: number;
    }
  | {
      readonly kind: "error";
      readonly status: number;
      readonly message?: string;
      readonly retryAfterS?: number;
      readonly delayMs?: number;
    }
  /** HTTP 200 with a body that is not JSON (default: a truncated object). */
  | { readonly kind: "malformed"; readonly body?: string; readonly delayMs?: number }
  | { readonly kind: "empty_choices"; readonly delayMs?: number }
  /** Never answer; the socket stays open until the client gives up or the server closes. */
  | { readonly kind: "hang" }
  /** Close the connection without an answer (a connection error for the client). */
  | { readonly kind: "drop"; readonly delayMs?: number };

/** Shorthands for building scripts. */
export const replies = {
  text: (text: string, extra: Omit<Extract<ReplayReply, { kind: "text" }>, "kind" | "text"> = {}): ReplayReply => ({
    kind: "text",
    text,
    ...extra,
  }),
  error: (status: number, message?: string): ReplayReply => ({ kind: "error", status, message }),
  rateLimit: (retryAfterS: number): ReplayReply => ({
    kind: "error",
    status: 429,
    retryAfterS,
    message: "rate limited",
  }),
  malformed: (body?: string): ReplayReply => ({ kind: "malformed", body }),
  emptyChoices: (): ReplayReply => ({ kind: "empty_choices" }),
  slow: (text: string, delayMs: number): ReplayReply => ({ kind: "text", text, delayMs }),
  hang: (): ReplayReply => ({ kind: "hang" }),
  drop: (): ReplayReply => ({ kind: "drop" }),
};

/** What the server received (the body as parsed JSON, or the raw text when it was not JSON). */
export interface ReplayRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  readonly messages: readonly ChatMessage[];
  readonly receivedAt: number;
}

export type ReplayScript = readonly ReplayReply[] | ((request: ReplayRequest) => ReplayReply | Promise<ReplayReply>);

export interface ReplayServerOptions {
  /** Model id listed by GET /v1/models and echoed in answers. */
  readonly model?: string;
  /** After an array script runs out: "error" answers HTTP 400 naming the count; "repeat-last" repeats. */
  readonly onExhausted?: "error" | "repeat-last";
  /** Port on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
}

export interface ReplayServer {
  /** e.g. http://127.0.0.1:41234/v1, ready for llm.baseURL. */
  readonly baseURL: string;
  readonly port: number;
  /** Chat-completion requests received, in arrival order. */
  readonly requests: readonly ReplayRequest[];
  /** Chat requests being answered right now, and the most at once so far. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export async function startReplayServer(script: ReplayScript, opts: ReplayServerOptions = {}): Promise<ReplayServer> {
  const model = opts.model ?? "replay-model";
  const requests: ReplayRequest[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  let closing = false;

  const pick = async (req: ReplayRequest): Promise<ReplayReply> => {
    if (typeof script === "function") return script(req);
    if (req.index < script.length) return script[req.index]!;
    if (opts.onExhausted === "repeat-last" && script.length > 0) return script[script.length - 1]!;
    return {
      kind: "error",
      status: 400,
      message: `replay script exhausted: it has ${script.length} replies, this is request ${req.index + 1}`,
    };
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((e) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `replay server bug: ${String(e)}`, type: "server_error" } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0]!;
    const raw = await readBody(req);
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, {
        object: "list",
        data: [{ id: model, object: "model", created: 0, owned_by: "openmle-replay" }],
      });
      return;
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      sendJson(res, 404, {
        error: {
          message:
            `no route ${req.method} ${path}; the replay server serves POST ` +
            `/v1/chat/completions and GET /v1/models`,
          type: "not_found",
        },
      });
      return;
    }
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      /* recorded as text; answered below */
    }
    const messages = Array.isArray((body as { messages?: unknown })?.messages)
      ? (body as { messages: ChatMessage[] }).messages
      : [];
    const request: ReplayRequest = {
      index: requests.length,
      method: req.method,
      path,
      headers: req.headers,
      body,
      messages,
      receivedAt: Date.now(),
    };
    requests.push(request);
    if (typeof body !== "object" || body === null) {
      sendJson(res, 400, { error: { message: "request body is not JSON", type: "invalid_request_error" } });
      return;
    }
    if ((body as { stream?: unknown }).stream === true) {
      sendJson(res, 400, {
        error: { message: "the replay server does not stream; send stream: false", type: "invalid_request_error" },
      });
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await answer(await pick(request), request, res);
    } finally {
      inFlight--;
    }
  }

  async function answer(reply: ReplayReply, request: ReplayRequest, res: ServerResponse): Promise<void> {
    if (reply.kind === "hang") {
      await new Promise<void>((resolve) => res.on("close", resolve));
      return;
    }
    if (reply.delayMs) await waitOrClose(reply.delayMs, res);
    if (res.destroyed || closing) return;
    const id = `chatcmpl-replay-${request.index}`;
    const created = Math.floor(Date.now() / 1000);
    switch (reply.kind) {
      case "drop":
        res.socket?.destroy();
        return;
      case "error": {
        const headers: Record<string, string> =
          reply.retryAfterS !== undefined ? { "retry-after": String(reply.retryAfterS) } : {};
        const type =
          reply.status === 429 ? "rate_limit_error" : reply.status >= 500 ? "server_error" : "invalid_request_error";
        sendJson(
          res,
          reply.status,
          { error: { message: reply.message ?? `replayed HTTP ${reply.status}`, type, code: null } },
          headers,
        );
        return;
      }
      case "malformed":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          reply.body ??
            `{"id": "${id}", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assist`,
        );
        return;
      case "empty_choices":
        sendJson(res, 200, {
          id,
          object: "chat.completion",
          created,
          model,
          choices: [],
          usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        });
        return;
      case "text": {
        const usage =
          reply.usage === null
            ? undefined
            : (reply.usage ?? {
                promptTokens: await countChatTokens(request.messages),
                completionTokens: await countTextTokens(reply.text),
              });
        sendJson(res, 200, {
          id,
          object: "chat.completion",
          created,
          model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: reply.text },
              finish_reason: reply.finishReason ?? "stop",
              logprobs: null,
            },
          ],
          ...(usage
            ? {
                usage: {
                  prompt_tokens: usage.promptTokens,
                  completion_tokens: usage.completionTokens,
                  total_tokens: usage.promptTokens + usage.completionTokens,
                },
              }
            : {}),
        });
        return;
      }
    }
  }

  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Wait `ms`, or less if the client hangs up first. */
function waitOrClose(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once("close", done);
    function done() {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    }
  });
}
