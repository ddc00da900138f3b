#!/usr/bin/env node
// Builds notebooks/*.ipynb from readable sources in notebooks/src/*.ts (cells split by
// `// %%` for code and `// %% [markdown]` for markdown, whose lines start with `// `).
// Code cells whose source is unchanged keep their committed outputs (scripts/notebook-outputs.mjs); edited
// cells start empty until `npm run notebooks:update` executes the notebook and writes its outputs back.
// Usage: node scripts/notebook.mjs            (all sources)
//        node scripts/notebook.mjs 00-workspace
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { carryOutputs } from "./notebook-outputs.mjs";

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
  // Cell ids from the cell's text (nbformat 4.5 wants ids; nbconvert would make random ones per run).
  const seen = new Map();
  return out.map((c) => {
    while (c.lines.length && c.lines.at(-1).trim() === "") c.lines.pop();
    const source = c.lines.map((l, i) => (i < c.lines.length - 1 ? `${l}\n` : l));
    const hash = createHash("sha256").update(`${c.kind}\n${source.join("")}`).digest("hex").slice(0, 8);
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    const id = n === 1 ? hash : `${hash}-${n}`;
    return c.kind === "markdown"
      ? { cell_type: "markdown", id, metadata: {}, source }
      : { cell_type: "code", execution_count: null, id, metadata: {}, outputs: [], source };
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
  const file = join(root, "notebooks", `${name}.ipynb`);
  const previous = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
  const { nb: out, kept } = carryOutputs(previous, nb);
  writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
  const code = nb.cells.filter((c) => c.cell_type === "code").length;
  console.log(`notebooks/${name}.ipynb (${nb.cells.length} cells; outputs kept for ${kept} of ${code} code cells)`);
}
