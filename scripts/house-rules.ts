// The house rules a machine can check (issue 24): SQL lives in kit/store or a layer's `*-store.ts`;
// kit source files stay ≤ 350 lines with lines ≤ 120 characters. Read with the TypeScript parser, so
// comments never count and a regular expression's `.exec` is told from a workspace's.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const MAX_LINES = 350;
export const MAX_LINE_CHARS = 120;

/** Statements as the kit writes them (upper-case keywords), in a string or template literal. */
const SQL_TEXT = [
  /\bSELECT\b[\s\S]*\bFROM\b/, /\bUPDATE\s+\w+\s+SET\b/, /\bDELETE\s+FROM\b/, /\bINSERT\s+INTO\b/,
  /\bCREATE\s+(OR\s+REPLACE\s+)?(TABLE|VIEW|INDEX)\b/, /\bALTER\s+TABLE\b/, /\bCOPY\s*\(/, /\bDROP\s+TABLE\b/,
];
/** A workspace's statement methods; `.exec` on a regular expression literal is not one. */
const SQL_METHODS = new Set(["query", "exec", "queryColumns"]);

export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly rule: "sql-call" | "sql-text" | "file-lines" | "line-chars";
  readonly text: string;
}

/** Files whose SQL is allowed where they are, each with the reason. */
export const SQL_ALLOWED: Readonly<Record<string, string>> = {
  "kit/cli/workspace-cmd.ts": "`workspace query` runs the researcher's own SQL (a read-only, confined handle)",
};

/** Where SQL may live: the store layer, a layer's `*-store.ts` files. */
export const sqlHome = (file: string): boolean => file.startsWith("kit/store/") || /-store\.ts$/.test(file);

/** Test code is exempt from every rule (tests check the tables directly; fixtures build them). */
export const isTestCode = (file: string): boolean => /\.test\.ts$/.test(file) || file.includes("/test-helpers/");

/** The house-rule findings of one TypeScript source text. */
export function scanSource(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const sqlHere = !sqlHome(file) && !(file in SQL_ALLOWED);
  // A multi-line template literal's lines after its first are generated text (Python programs, prompts):
  // exempt from width. Its first line holds the TypeScript around it, and is checked.
  const templateLines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const first = lineOf(node.getStart(sf));
      const last = lineOf(node.getEnd());
      for (let l = first + 1; l <= last; l++) templateLines.add(l);
    }
    if (sqlHere) {
      const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text
        : ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" ? ")
          : null;
      // A hint that tells a person what to type at `openmle workspace query` is the researcher's interface.
      const hint = literal !== null && literal.includes("workspace query");
      if (literal !== null && !hint && SQL_TEXT.some((re) => re.test(literal))) {
        out.push({ file, line: lineOf(node.getStart(sf)), rule: "sql-text", text: literal.slice(0, 80) });
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)
        && SQL_METHODS.has(node.expression.name.text) && !ts.isRegularExpressionLiteral(node.expression.expression)) {
        out.push({ file, line: lineOf(node.getStart(sf)), rule: "sql-call", text: node.getText(sf).slice(0, 80) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const lines = text.split("\n");
  if (lines.length > MAX_LINES) out.push({ file, line: lines.length, rule: "file-lines", text: `${lines.length} lines` });
  lines.forEach((l, i) => {
    if (l.length > MAX_LINE_CHARS && !templateLines.has(i + 1)) {
      out.push({ file, line: i + 1, rule: "line-chars", text: `${l.length} chars: ${l.trim().slice(0, 60)}` });
    }
  });
  return out;
}

/** Every kit source file (TypeScript, tests excluded), relative to `root`. */
export function kitSources(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts")) files.push(relative(root, p));
    }
  };
  walk(join(root, "kit"));
  return files.filter((f) => !isTestCode(f)).sort();
}

/** The findings of the whole kit under `root`. */
export function scanKit(root: string): Finding[] {
  return kitSources(root).flatMap((f) => scanSource(f, readFileSync(join(root, f), "utf8")));
}

// `npx tsx scripts/house-rules.ts [rule]` lists the findings, e.g. while moving SQL into store files.
if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  const found = scanKit(process.cwd()).filter((f) => !only || f.rule === only);
  for (const f of found) console.log(`${f.file}:${f.line}  ${f.rule}  ${f.text}`);
  console.log(`${found.length} findings`);
}
