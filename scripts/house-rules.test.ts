import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { drawnEdges, layerEdges, layerOf } from "./layer-edges.js";
import { MAX_LINES, scanKit, scanSource, sqlHome } from "./house-rules.js";

const ROOT = process.cwd();

describe("the scanner", () => {
  it.each([
    ["a workspace call", `await ws.query("SELECT a FROM runs");`, ["sql-call", "sql-text"]],
    ["a call on any receiver", `await this.ws.exec(sql, { r });`, ["sql-call"]],
    ["SQL text in a template", "const q = `UPDATE runs SET status = ${s} WHERE run_id = $r`;", ["sql-text"]],
    ["DELETE in a plain string", `const q = "DELETE FROM tasks WHERE task_id = $id";`, ["sql-text"]],
    ["a regular expression's exec", `const m = /x(\\d+)/.exec(line);`, []],
    ["SQL in a comment", `// SELECT run_id FROM runs\nconst a = 1;`, []],
    ["a hint for workspace query", `const h = 'openmle workspace query DIR "SELECT run_id FROM runs"';`, []],
    ["lower-case prose", `const s = "select a model from the grid";`, []],
  ])("%s", (_, src, rules) => {
    expect(scanSource("kit/evo/x.ts", src).map((f) => f.rule)).toEqual(rules);
  });

  it("allows SQL in kit/store and in *-store.ts files", () => {
    expect(sqlHome("kit/store/runs.ts")).toBe(true);
    expect(sqlHome("kit/erl/rl/rl-store.ts")).toBe(true);
    expect(sqlHome("kit/erl/rl/train-rl.ts")).toBe(false);
    expect(scanSource("kit/evo/node-store.ts", `await ws.query("SELECT * FROM nodes");`)).toEqual([]);
  });

  it("counts long lines, except a multi-line template's lines after its first (generated Python)", () => {
    const long = "x".repeat(130);
    const src = `const a = 1; // ${long}\nconst py = \`\n${long}\n${long}\`;\n`;
    expect(scanSource("kit/evo/x.ts", src).map((f) => [f.rule, f.line])).toEqual([["line-chars", 1]]);
    expect(scanSource("kit/evo/x.ts", `const py = \`${long}\n\`;\n`).map((f) => [f.rule, f.line])).toEqual([["line-chars", 1]]);
    const many = "const a = 1;\n".repeat(MAX_LINES + 1);
    expect(scanSource("kit/evo/x.ts", many).map((f) => f.rule)).toEqual(["file-lines"]);
  });
});

describe("the kit keeps the house rules", () => {
  const findings = scanKit(ROOT);
  const show = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => `${f.file}:${f.line} ${f.text}`);

  it("has SQL only in kit/store and *-store.ts files (and the allow-list)", () => {
    expect([...show("sql-call"), ...show("sql-text")]).toEqual([]);
  });

  it("has no source file over 350 lines", () => {
    expect(show("file-lines")).toEqual([]);
  });

  it("has no source line over 120 characters (generated Python templates excepted)", () => {
    expect(show("line-chars")).toEqual([]);
  });
});

describe("the layer picture in docs/architecture.md", () => {
  const drawn = drawnEdges(readFileSync(`${ROOT}/docs/architecture.md`, "utf8"));
  const actual = [...layerEdges(ROOT).keys()];

  it("names layers the way the code has them", () => {
    expect(layerOf("kit/erl/rl/train-rl.ts")).toBe("erl/rl");
    expect(layerOf("kit/erl/checkpoints.ts")).toBe("erl");
    expect(layerOf("kit/index.ts")).toBe("index");
  });

  it("draws every import edge between layers that exists, and none that does not", () => {
    expect(actual.filter((e) => !drawn.includes(e))).toEqual([]);
    expect(drawn.filter((e) => !actual.includes(e))).toEqual([]);
  });
});
