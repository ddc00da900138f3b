import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../llm/spec.js";
import { composition } from "./composition.js";
import { dedupExamples, normaliseMessages } from "./dedup.js";

const m = (role: ChatMessage["role"], content: string): ChatMessage => ({ role, content });

describe("normaliseMessages and dedupExamples", () => {
  const table: [string, ChatMessage[], ChatMessage[]][] = [
    ["CRLF and trailing spaces", [m("user", "a  \r\nb\t\r\n")], [m("user", "a\nb")]],
    ["leading/trailing blank lines", [m("assistant", "\n\nx = 1\n\n")], [m("assistant", "x = 1")]],
    ["inner blank lines and indentation stay", [m("assistant", "if x:\n    y\n\nz")], [m("assistant", "if x:\n    y\n\nz")]],
  ];
  for (const [name, input, want] of table) it(name, () => expect(normaliseMessages(input)).toEqual(want));

  it("keeps the first of equal normalised lists; a role or content change is not a duplicate", () => {
    const ex = (id: string, ...messages: ChatMessage[]) => ({ id, messages });
    const r = dedupExamples([
      ex("a", m("user", "p"), m("assistant", "x = 1\n")),
      ex("b", m("user", "p  "), m("assistant", "x = 1")),
      ex("c", m("system", "p"), m("assistant", "x = 1")),
      ex("d", m("user", "p"), m("assistant", "x = 2")),
    ]);
    expect(r.kept.map((e) => e.id)).toEqual(["a", "c", "d"]);
    expect(r.duplicates).toBe(1);
  });
});

describe("composition", () => {
  it("counts per operator and path; shares of all examples beside the paper's", () => {
    const rows = composition([
      { operator: "draft", path: "parallel" }, { operator: "draft", path: "parallel" }, { operator: "draft", path: "evolution" },
      { operator: "debug", path: "evolution" },
    ]);
    expect(rows.map((r) => [r.operator, r.parallel, r.evolution, r.sharePct, r.paperPct])).toEqual([
      ["draft", 2, 1, 75, 74.0], ["improve", 0, 0, 0, 6.6], ["debug", 0, 1, 25, 16.5], ["crossover", 0, 0, 0, 2.8],
    ]);
  });
});

describe("tokenFilter (Qwen3 chat template)", () => {
  it("drops examples over the limit and records the count of the kept ones", async () => {
    const { tokenFilter } = await import("./sft-example.js");
    const ex = (id: string, reply: string) => ({
      taskId: "t", operator: "draft" as const, path: "parallel" as const, teacher: "grammar", score: 1, sourceRun: null, sourceNode: id,
      messages: [m("user", "Write a program."), m("assistant", reply)], program: reply, choices: null, judgeReason: null,
    });
    // "x = 1" is a handful of tokens plus the template's role markers; 400 numbers are over 400 tokens.
    const long = Array.from({ length: 400 }, (_, i) => String(i)).join(" ");
    const r = await tokenFilter([ex("short", "x = 1"), ex("long", long)], 200);
    expect(r.kept.map((e) => e.sourceNode)).toEqual(["short"]);
    expect(r.overLimit).toBe(1);
    expect(r.kept[0]!.tokens).toBeGreaterThan(5);
    expect(r.kept[0]!.tokens).toBeLessThan(40);
  }, 60_000);
});
