import { describe, expect, it } from "vitest";
import { buildPrompt, cutMiddle, keepEnd } from "./operator-prompt.js";
import { formatDuration, renderPrompt } from "./render-prompt.js";
import { contextFor, tinyTask } from "./test-helpers.js";

const task = tinyTask();

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [45, "45s"],
    [60, "1m"],
    [90, "1m 30s"],
    [3600, "1h"],
    [5400, "1h 30m"],
    [5459.6, "1h 31m"],
    [-5, "0s"],
  ])("%f s → %s", (s, text) => expect(formatDuration(s)).toBe(text));
});

describe("cutMiddle / keepEnd", () => {
  it("keeps both ends of long code and the end of long logs", () => {
    expect(cutMiddle("abcdefghij", 20)).toBe("abcdefghij");
    expect(cutMiddle("abcdefghij", 4)).toBe("ab\n# … 6 characters cut …\nij");
    expect(keepEnd("abcdefghij", 3)).toBe("…hij");
  });
});

describe("buildPrompt + renderPrompt", () => {
  it("is pure: the same prompt object renders to the same messages", () => {
    const p = buildPrompt(task, "improve", contextFor("improve"));
    expect(renderPrompt(p)).toEqual(renderPrompt(structuredClone(p)));
  });

  it("states the program contract, the task, the data and the budget for every operator", () => {
    for (const op of ["draft", "improve", "debug", "crossover"] as const) {
      const [system, user] = renderPrompt(buildPrompt(task, op, contextFor(op)));
      expect(system!.role).toBe("system");
      expect(system!.content).toContain('os.environ["DATA_DIR"]');
      expect(system!.content).toContain("`submission.csv`");
      expect(system!.content).toContain("`Final Validation Score: <float>`");
      expect(system!.content).toContain("accuracy, higher is better");
      expect(system!.content).toContain("`id`, `species`");
      expect(system!.content).toContain("within 10m");
      expect(user!.content).toContain("# Task: Tiny penguins (tiny-penguins)");
      expect(user!.content).toContain("Predict the penguin species");
      expect(user!.content).toContain("- train: train.csv (30 rows), target column `species`");
      expect(user!.content).toContain("bill_len (numeric, 10 unique, 10.0% missing)");
      expect(user!.content).toContain("\nFirst 5 rows of train.csv:\n```csv\nid,bill_len,island,species\n0,35.0,Biscoe,Adelie\n");
      expect(user!.content).toContain("- search steps remaining: 12\n- search time remaining: 1h 30m\n- time limit of one run of your program: 10m");
    }
  });

  it("shows each operator its own context", () => {
    const text = (op: "draft" | "improve" | "debug" | "crossover") => renderPrompt(buildPrompt(task, op, contextFor(op)))[1]!.content;
    const draft = text("draft");
    expect(draft).not.toContain("# Parent");
    expect(draft).toContain("Draft a first complete solution");

    const improve = text("improve");
    expect(improve).toContain("# Parent program: node n3 (draft; validation accuracy = 0.8)");
    expect(improve).toContain("```python\n# program of n3");
    expect(improve).toContain("# Ancestors (nearest first)\n\n- n1 [draft; score 0.8]: plan of n1");
    expect(improve).toContain("# Sibling attempts (highest selection utility first)\n\n- n4 [draft; score 0.85]");
    expect(improve).toContain("raise the validation accuracy");

    const debug = text("debug");
    expect(debug).toContain("# Failing program: node n5 (draft; runtime_error, import_error)");
    expect(debug).toContain("ModuleNotFoundError: No module named 'lightgbm'");
    expect(debug).toContain("# Related attempts (same error signature first, then the most recent)\n\n- n2 [runtime_error, import_error]: ModuleNotFoundError: No module named 'catboost'");
    expect(debug).toContain("Fix the failing program");

    const cross = text("crossover");
    expect(cross).toContain("# Parent A: node n3");
    expect(cross).toContain("# Parent B: node n6");
    expect(cross).toContain("# Memory\n\nBranch A contributes xgboost");
  });

  it("keeps the profile when train.csv cannot be read", () => {
    const p = buildPrompt({ ...task, publicDir: "/nonexistent/openmle" }, "draft", contextFor("draft"));
    expect(p.dataOverview).toContain("- metric: accuracy (higher is better)");
    expect(p.dataOverview).not.toContain("```csv");
  });

  it("refuses an operator without its parents", () => {
    expect(() => buildPrompt(task, "crossover", contextFor("improve"))).toThrow(/crossover needs 2 parents.*got 1/);
  });

  it("cuts long parent code and logs to the configured sizes", () => {
    const ctx = contextFor("debug");
    const long = { ...ctx, parents: [{ ...ctx.parents[0]!, code: "x = 1\n".repeat(1000), traceback: "t".repeat(5000) }] };
    const p = buildPrompt(task, "debug", long, { maxCodeChars: 600, maxTracebackChars: 100 });
    expect(p.parents[0]!.code.length).toBeLessThan(700);
    expect(p.parents[0]!.code).toContain("characters cut");
    expect(p.parents[0]!.traceback).toBe(`…${"t".repeat(100)}`);
  });
});
