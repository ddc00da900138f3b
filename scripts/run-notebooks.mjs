#!/usr/bin/env node
// Executes every notebook headless with nbconvert (tslab kernel) and fails on any cell error.
// Executed copies go to $NOTEBOOK_OUT (default: a temp folder); the committed notebooks stay clean.
// Usage: node scripts/run-notebooks.mjs [name-substring ...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureProjectKernel, notebookEnv } from "./kernel.mjs";

const root = new URL("..", import.meta.url).pathname;
const nbDir = join(root, "notebooks");
const outDir = process.env.NOTEBOOK_OUT ?? mkdtempSync(join(tmpdir(), "openmle-notebooks-"));
const filters = process.argv.slice(2);
// Notebooks import "openmle" through node_modules/openmle -> .. (npm install prunes the link).
if (!existsSync(join(root, "node_modules/openmle"))) symlinkSync("..", join(root, "node_modules/openmle"));
// The kernel named "tslab" resolves to this clone's own kernelspec (scripts/kernel.mjs), never to
// whichever clone last registered a global one.
ensureProjectKernel();
const notebooks = readdirSync(nbDir)
  .filter((f) => f.endsWith(".ipynb") && (!filters.length || filters.some((s) => f.includes(s))))
  .sort();

let passed = 0;
let failed = 0;
for (const nb of notebooks) {
  const t0 = Date.now();
  const r = spawnSync(
    "jupyter",
    ["nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=900",
     "--ExecutePreprocessor.kernel_name=tslab", "--output-dir", outDir, join(nbDir, nb)],
    { cwd: nbDir, encoding: "utf8", env: { ...notebookEnv(), PYDEVD_DISABLE_FILE_VALIDATION: "1" } },
  );
  let errors = [];
  if (r.status === 0) {
    const done = JSON.parse(readFileSync(join(outDir, nb), "utf8"));
    errors = done.cells.flatMap((c) => (c.outputs ?? []).filter((o) => o.output_type === "error"));
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status === 0 && errors.length === 0) {
    passed++;
    console.log(`✓ ${nb} (${secs}s)`);
  } else {
    failed++;
    console.log(`✗ ${nb} (${secs}s)`);
    const tail = (r.stderr || "").split("\n").filter((l) => !/Debugger warning|frozen modules|PYDEVD|Debugging will proceed/.test(l));
    console.log(tail.slice(-40).join("\n"));
    for (const e of errors) console.log(`${e.ename}: ${e.evalue}`);
  }
}
console.log(`notebooks: ${passed} passed, ${failed} failed (executed copies in ${outDir})`);
process.exit(failed ? 1 : 0);
