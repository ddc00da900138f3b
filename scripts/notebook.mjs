#!/usr/bin/env node
// Builds notebooks/*.ipynb from readable sources in notebooks/src/*.ts (cells split by
// `// %%` for code and `// %% [markdown]` for markdown, whose lines start with `// `).
// Usage: node scripts/notebook.mjs            (all sources)
//        node scripts/notebook.mjs 00-workspace
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const srcDir = join(root, "notebooks/src");
const only = process.argv[2];

function cells(text) {
  const out = [];
  let cur = null;
  for (const line of text.split("\n")) {
    const m = /^\/\/ %%( \[markdown\])?\s*$/.exec(line);
    if (m) {
      if (cur) out.push(cur);
      cur = { kind: m[1] ? "markdown" : "code", lines: [] };
      continue;
    }
    if (!cur) continue;
    cur.lines.push(cur.kind === "markdown" ? line.replace(/^\/\/ ?/, "") : line);
  }
  if (cur) out.push(cur);
  return out.map((c) => {
    while (c.lines.length && c.lines.at(-1).trim() === "") c.lines.pop();
    const source = c.lines.map((l, i) => (i < c.lines.length - 1 ? `${l}\n` : l));
    return c.kind === "markdown"
      ? { cell_type: "markdown", metadata: {}, source }
      : { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source };
  });
}

for (const f of readdirSync(srcDir).filter((f) => f.endsWith(".ts")).sort()) {
  const name = basename(f, ".ts");
  if (only && name !== only) continue;
  const nb = {
    cells: cells(readFileSync(join(srcDir, f), "utf8")),
    metadata: {
      kernelspec: { display_name: "TypeScript", language: "typescript", name: "tslab" },
      language_info: { name: "typescript", file_extension: ".ts", mimetype: "text/typescript" },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
  writeFileSync(join(root, "notebooks", `${name}.ipynb`), `${JSON.stringify(nb, null, 1)}\n`);
  console.log(`notebooks/${name}.ipynb (${nb.cells.length} cells)`);
}
