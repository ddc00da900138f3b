#!/usr/bin/env node
// A static HTML gallery of the committed notebooks (their outputs as committed; nothing is executed):
// one page per notebook (jupyter nbconvert --to html), an index page, and plotly.js beside them so the
// figures, which show their static PNG snapshot first, redraw interactive.
// Usage: node scripts/notebooks-html.mjs [--out reports/notebooks] [name-substring ...]
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "./kernel.mjs";

const { values, positionals } = parseArgs({ options: { out: { type: "string", default: "reports/notebooks" } }, allowPositionals: true });
const out = resolve(values.out);
const nbDir = join(ROOT, "notebooks");
mkdirSync(out, { recursive: true });
copyFileSync(createRequire(import.meta.url).resolve("plotly.js-dist-min"), join(out, "plotly.min.js"));

const esc = (s) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const notebooks = readdirSync(nbDir)
  .filter((f) => f.endsWith(".ipynb") && (!positionals.length || positionals.some((s) => f.includes(s))))
  .sort();
const entries = [];
for (const f of notebooks) {
  const r = spawnSync("jupyter", ["nbconvert", "--to", "html", "--output-dir", out, join(nbDir, f)], { encoding: "utf8" });
  if (r.status !== 0) {
    console.error(`✗ ${f}\n${r.stderr.split("\n").slice(-15).join("\n")}`);
    process.exit(1);
  }
  const page = join(out, f.replace(/\.ipynb$/, ".html"));
  // plotly.js first in <head>: each figure's script then draws it over its snapshot.
  writeFileSync(page, readFileSync(page, "utf8").replace("<head>", '<head>\n<script src="plotly.min.js"></script>'));
  const nb = JSON.parse(readFileSync(join(nbDir, f), "utf8"));
  const md = (nb.cells.find((c) => c.cell_type === "markdown")?.source ?? []).join("").split("\n");
  const title = (md.find((l) => l.startsWith("# ")) ?? f).replace(/^# /, "");
  const blurb = md.filter((l) => l && !l.startsWith("#")).join(" ").split(/(?<=\.) /)[0] ?? "";
  const outputs = nb.cells.reduce((n, c) => n + (c.outputs?.length ?? 0), 0);
  entries.push({ f, title, blurb, outputs });
  console.log(`✓ ${page}`);
}
const rows = entries
  .map((e) => `<li><a href="${e.f.replace(/\.ipynb$/, ".html")}">${esc(e.title)}</a> <small>(${e.f}, ${e.outputs} outputs)</small><br>${esc(e.blurb)}</li>`)
  .join("\n");
writeFileSync(
  join(out, "index.html"),
  `<!doctype html><html><head><meta charset="utf-8"><title>OpenMLE kit notebooks</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:880px;margin:2em auto;padding:0 1em}li{margin:.8em 0}small{color:#666}</style></head>
<body><h1>OpenMLE kit notebooks</h1><p>The committed notebooks with the outputs of their headless run
(<code>npm run notebooks:update</code>); code and sources in <code>notebooks/src</code>.</p><ul>
${rows}
</ul></body></html>
`,
);
console.log(`gallery: ${join(out, "index.html")} (${entries.length} notebooks)`);
