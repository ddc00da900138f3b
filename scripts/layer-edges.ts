// The kit's layer graph as the code has it: which layer imports which (issue 24, point 6). A layer is a
// folder of kit/; policy/ and erl/ are split into their parts (policy/grammar, erl/sft, …), whose folder
// root files count as the parent (erl/checkpoints.ts is `erl`). Tests and test helpers are left out.
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript";
import { isTestCode, kitSources } from "./house-rules.js";

/** Folders whose subfolders are layers of their own. */
const SPLIT = new Set(["policy", "erl"]);

/** The layer of a kit source path (relative to the project root), e.g. `erl/rl`, `store`, `index`. */
export function layerOf(file: string): string {
  const parts = relative("kit", file).split("/");
  if (parts.length === 1) return "index";
  if (SPLIT.has(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

/** Relative module specifiers a source imports or re-exports (type-only ones included: they couple too). */
export function importsOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  const out: string[] = [];
  for (const s of sf.statements) {
    const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) ? s.moduleSpecifier : undefined;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith(".")) out.push(spec.text);
  }
  return out;
}

/** Edges "from -> to" between layers, each with the files that make it. */
export function layerEdges(root: string): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of kitSources(root)) {
    for (const spec of importsOf(file, readFileSync(join(root, file), "utf8"))) {
      const target = normalize(join(dirname(file), spec)).replace(/\.js$/, ".ts");
      if (!target.startsWith("kit/") || isTestCode(target)) continue;
      const [from, to] = [layerOf(file), layerOf(target)];
      // A part importing its own parent's shared files (erl/rl → erl) is inside the layer.
      if (from === to || from.startsWith(`${to}/`)) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), file].filter((f, i, a) => a.indexOf(f) === i));
    }
  }
  return new Map([...edges].sort(([a], [b]) => a.localeCompare(b)));
}

/** The edges drawn in docs/architecture.md: the first column of its edge table, `from -> to` in backticks. */
export function drawnEdges(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*`([\w/]+ -> [\w/]+)`\s*\|/gm)].map((m) => m[1]!);
}

// `npx tsx scripts/layer-edges.ts` prints the graph with an example file per edge.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [edge, files] of layerEdges(process.cwd())) {
    console.log(`${edge.padEnd(30)} ${String(files.length).padStart(3)}  ${files.slice(0, 2).join(", ")}`);
  }
}
