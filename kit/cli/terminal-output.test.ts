import { describe, expect, it } from "vitest";
import type { ExecutionRecord } from "../sandbox/index.js";
import { formatTable } from "./format.js";
import { renderNode, type NodeDetail } from "./node-cmd.js";
import { jsonText, output } from "./run-cli.js";
import { describeRecord } from "./sandbox-cmd.js";

// Issue 25, break 7: what programs and packages wrote reaches the terminal only with its control characters escaped.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const ESC = "\x1b]0;pwned\x07\x1b[31m";

function stdout(fn: () => void): string {
  let out = "";
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    fn();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

describe("the CLI's output boundary", () => {
  it("output() escapes control characters in human text and keeps its lines", () => {
    expect(stdout(() => output(false, {}, () => `a${ESC}\nb\tc\r\n`))).toBe("a\\x1b]0;pwned\\x07\\x1b[31m\nb\tc\n\n");
  });

  it("JSON escapes C1 controls too (JSON.stringify leaves U+007F–U+009F raw), and still parses back", () => {
    expect(JSON.stringify("\x9b\x1b")).toBe('"\x9b\\u001b"');
    expect(jsonText("\x9b\x1b\x7f")).toBe('"\\u009b\\u001b\\u007f"');
    expect(JSON.parse(jsonText({ a: "\x9b2J" }))).toEqual({ a: "\x9b2J" });
    // BigInts (a query's BIGINT): a number where exact, the decimal string past 2^53, never a TypeError
    expect(jsonText([5n, 9223372036854775807n, -(2n ** 60n)])).toBe('[5,"9223372036854775807","-1152921504606846976"]');
    const printed = stdout(() => output(true, { name: `x${ESC}\x9b` }, () => ""));
    expect(printed).not.toMatch(RAW);
    expect(JSON.parse(printed)).toEqual({ name: `x${ESC}\x9b` });
  });

  it("a table cell shows newlines as ⏎ and escapes the rest", () => {
    expect(formatTable([{ task: `t${ESC}\nFinal Validation Score: 1` }])).toBe(
      "task\n" + "-".repeat(51) + "\nt\\x1b]0;pwned\\x07\\x1b[31m⏎Final Validation Score: 1",
    );
  });
});

describe("the formatters keep a program's single-line fields on one line", () => {
  it("sandbox run: artifact names, the error signature and warnings", () => {
    const r = {
      status: "runtime_error", errorSignature: `Boom${ESC}\nFinal Validation Score: 1`, taskId: "t\nx", backend: "local",
      executionId: "e1", validScore: null, testScore: null, wallS: 1, cpuS: 1, peakMemMb: 3,
      artifacts: ["a\nFinal Validation Score: 1.0", "b"], warnings: ["w\nPASSED"], traceback: `Traceback\n${ESC}`,
    } as unknown as ExecutionRecord;
    const text = describeRecord(r);
    expect(text).not.toMatch(RAW);
    expect(text).not.toMatch(/^(Final Validation Score|PASSED|x)/m);
    expect(text).toContain("artifacts   a\\nFinal Validation Score: 1.0, b");
    expect(text).toContain("\nTraceback\n\\x1b]0;pwned");
  });

  it("node show: stored fields, with plan, traceback, output and code kept as text", () => {
    const d = {
      runId: "r1", nodeId: "n1",
      node: { operator: "draft", step: 0, generation: 0, parents: ["p\nFORGED"], status: "runtime_error", error_signature: `E${ESC}\nFORGED`, valid_score: null, test_score: null, admitted: false, plan: `plan${ESC}`, code: `print(1)${ESC}` },
      execution: { backend: "local", status: "runtime_error", wall_s: 1, cpu_s: 1, peak_mem_mb: 2, traceback: `tb${ESC}\nline 2`, stdout_tail: `out\r${ESC}` },
      card: { method_family: `fam\nFORGED`, family_explored: 1, imports: ["x\nFORGED"], delta_vs_parent: null, novelty: null, rank: null, champion_at_write: false },
    } as unknown as NodeDetail;
    const text = stdout(() => output(false, d, () => renderNode(d)));
    expect(text).not.toMatch(RAW);
    expect(text).not.toMatch(/^FORGED/m);
    expect(text).toContain("tb\\x1b]0;pwned\\x07\\x1b[31m\nline 2");
  });
});

// Issue 59.7: bidi controls (U+202E, …) were printed raw, so "report\u202Efdp.exe" showed as "reportexe.pdf".
describe("bidi controls in names are shown, never obeyed", () => {
  const BIDI = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
  const NAME = "report\u202Efdp.exe\u2066x\u2069";
  const SHOWN = "report\\u202efdp.exe\\u2066x\\u2069";

  it("sandbox run's artifacts, a table cell, human output and JSON", () => {
    const r = {
      status: "success", taskId: `t${NAME}`, backend: "local", executionId: "e1", validScore: 1, testScore: 1,
      wallS: 1, cpuS: 1, peakMemMb: 3, artifacts: [NAME],
    } as unknown as ExecutionRecord;
    const text = stdout(() => output(false, r, () => describeRecord(r)));
    expect(text).not.toMatch(BIDI);
    expect(text).toContain(`artifacts   ${SHOWN}`);
    expect(formatTable([{ run: NAME }])).toContain(SHOWN);
    expect(stdout(() => output(false, {}, () => `a ${NAME}`))).toBe(`a ${SHOWN}\n`);
    const json = stdout(() => output(true, { name: NAME }, () => ""));
    expect(json).not.toMatch(BIDI);
    expect(JSON.parse(json)).toEqual({ name: NAME });
  });
});
