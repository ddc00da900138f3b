/**
 * Reply → {plan, code}. The code is one fenced block: the largest ```python block, else the
 * largest fenced block that is not obviously another language, else (for a reply cut off by the
 * token limit) an unclosed ```python block to the end. No block → code null (missing_code).
 * The plan is the prose around it, with <think> sections and all code blocks removed.
 */
export interface ParsedReply {
  readonly plan: string;
  readonly code: string | null;
  /** The code came from an unclosed fence (the reply was probably cut by maxTokens). */
  readonly truncated: boolean;
  /** Fenced blocks found in the reply. */
  readonly blocks: number;
}

const PYTHON = new Set(["python", "py", "python3", "ipython"]);
const NOT_PYTHON = new Set([
  "bash",
  "sh",
  "shell",
  "console",
  "zsh",
  "json",
  "csv",
  "text",
  "txt",
  "plaintext",
  "yaml",
  "yml",
  "markdown",
  "md",
  "diff",
  "output",
  "sql",
  "toml",
  "ini",
]);
const FENCE = /^[ \t]*```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n([\s\S]*?)^[ \t]*```[ \t]*$/gm;

interface Block {
  readonly lang: string;
  readonly body: string;
  readonly start: number;
  readonly end: number;
}

export function parseReply(reply: string): ParsedReply {
  const text = stripThinking(reply.replace(/\r\n/g, "\n"));
  const blocks: Block[] = [...text.matchAll(FENCE)].map((m) => ({
    lang: m[1]!.toLowerCase(),
    body: m[2]!,
    start: m.index!,
    end: m.index! + m[0].length,
  }));
  const largest = (bs: Block[]) =>
    bs.reduce<Block | null>((a, b) => (a === null || b.body.trim().length > a.body.trim().length ? b : a), null);
  const chosen =
    largest(blocks.filter((b) => PYTHON.has(b.lang))) ?? largest(blocks.filter((b) => !NOT_PYTHON.has(b.lang)));
  let plan = text;
  for (const b of [...blocks].reverse()) plan = plan.slice(0, b.start) + plan.slice(b.end);
  let code = chosen ? chosen.body : null;
  let truncated = false;
  if (code === null) {
    const open = /^[ \t]*```[ \t]*(python|py|python3)?[ \t]*\n([\s\S]*)$/im.exec(plan);
    if (open && open[2]!.trim()) {
      code = open[2]!;
      truncated = true;
      plan = plan.slice(0, open.index);
    }
  }
  code = code !== null && code.trim() ? `${code.replace(/\s+$/, "")}\n` : null;
  return { plan: tidy(plan), code, truncated: code !== null && truncated, blocks: blocks.length };
}

/**
 * Drop <think>…</think> sections; a stray </think> (servers that strip the opening tag) drops
 * everything before it; an unclosed <think> swallows the rest.
 */
function stripThinking(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/g, "")
    .replace(/^[\s\S]*<\/think>/, "")
    .replace(/<think>[\s\S]*$/, "");
}

function tidy(plan: string): string {
  return plan
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
