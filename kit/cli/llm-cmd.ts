import type { Command } from "commander";
import { startReplayServer, type ReplayReply, type ReplayServer } from "../llm/index.js";
import { intFlag, PORT_RANGE } from "./numeric-flag.js";
import { readFileFlag } from "./path-flag.js";
import { UsageError } from "./run-cli.js";

const KINDS = ["text", "error", "malformed", "empty_choices", "hang", "drop"];

/**
 * Read a replay script: a JSON array of replies (`{"kind":"text","text":"..."}`, `{"kind":"error","status":429}`, ...)
 * or an object `{"replies": [...], "model": "...", "onExhausted": "error"|"repeat-last"}`. A plain string is a text
 * reply.
 */
export function readReplayScript(file: string): {
  replies: ReplayReply[];
  model?: string;
  onExhausted?: "error" | "repeat-last";
} {
  const text = readFileFlag("--script", file, 'Write a JSON array of replies, e.g. [{"kind":"text","text":"..."}]');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--script ${file} is not valid JSON (${(e as Error).message.split("\n")[0]}): fix the file`);
  }
  const obj = Array.isArray(raw)
    ? { replies: raw }
    : (raw as { replies?: unknown; model?: string; onExhausted?: "error" | "repeat-last" });
  if (!obj || !Array.isArray(obj.replies))
    throw new UsageError(`--script ${file}: expected a JSON array of replies or {"replies": [...]}`);
  const replies = obj.replies.map((r, i): ReplayReply => {
    if (typeof r === "string") return { kind: "text", text: r };
    const kind = (r as { kind?: unknown })?.kind;
    if (typeof kind !== "string" || !KINDS.includes(kind)) {
      throw new UsageError(
        `--script ${file}: reply ${i + 1} has kind ${JSON.stringify(kind)}; valid kinds: ${KINDS.join(", ")}`,
      );
    }
    return r as ReplayReply;
  });
  if (obj.onExhausted !== undefined && obj.onExhausted !== "error" && obj.onExhausted !== "repeat-last") {
    throw new UsageError(`--script ${file}: onExhausted must be "error" or "repeat-last"`);
  }
  return { replies, model: obj.model, onExhausted: obj.onExhausted };
}

export function registerLlm(program: Command): void {
  const llm = program
    .command("llm")
    .description("LLM helpers: the chat-completions replay server for teaching and offline demos");
  llm
    .command("replay")
    .description(
      "Serve scripted chat-completions replies on 127.0.0.1 (an OpenAI-compatible endpoint) until interrupted",
    )
    .requiredOption("--script <file>", 'JSON array of replies, e.g. [{"kind":"text","text":"..."}]')
    .option("--port <n>", "port on 127.0.0.1 (0: any free port)", "0")
    .option("--model <id>", "model id served at /v1/models (default: the script's, else replay-model)")
    .option("--repeat-last", "after the script runs out, repeat its last reply (default: answer HTTP 400)")
    .action(async (o: { script: string; port: string; model?: string; repeatLast?: boolean }) => {
      const port = intFlag("port", o.port, PORT_RANGE);
      const script = readReplayScript(o.script);
      let server: ReplayServer;
      try {
        server = await startReplayServer(script.replies, {
          model: o.model ?? script.model,
          onExhausted: o.repeatLast ? "repeat-last" : (script.onExhausted ?? "error"),
          port,
        });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "EADDRINUSE")
          throw new UsageError(`--port ${port} is in use on 127.0.0.1: pick another port or --port 0`);
        throw e;
      }
      process.stdout.write(
        `replay server on ${server.baseURL} (${script.replies.length} replies); use it with ` +
          `--base-url ${server.baseURL}. Ctrl-C stops it.\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      process.stdout.write(`served ${server.requests.length} requests\n`);
    });
}
