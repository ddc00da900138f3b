#!/usr/bin/env node
// Executes every notebook headless with nbconvert (tslab kernel) and fails on any cell error, or when a
// notebook's outputs differ from its committed ones after normalising (scripts/notebook-outputs.mjs).
// With --update the executed notebooks (outputs, figure snapshots) are written back to notebooks/*.ipynb.
// Executed copies go to $NOTEBOOK_OUT (default: a temp folder).
// Usage: node scripts/run-notebooks.mjs [--update] [name-substring ...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureProjectKernel, notebookEnv, ROOT } from "./kernel.mjs";
import { compareNotebooks, prepareForCommit } from "./notebook-outputs.mjs";
import { snapshotter } from "./notebook-snapshots.mjs";

const root = ROOT;
const nbDir = join(root, "notebooks");
const outDir = process.env.NOTEBOOK_OUT ?? mkdtempSync(join(tmpdir(), "openmle-notebooks-"));
const args = process.argv.slice(2);
const update = args.includes("--update");
const filters = args.filter((a) => !a.startsWith("--"));
const UPDATE_HINT = "npm run notebooks:update";
// Notebooks import "openmle" through node_modules/openmle -> .. (npm install prunes the link).
if (!existsSync(join(root, "node_modules/openmle"))) symlinkSync("..", join(root, "node_modules/openmle"));
// The kernel named "tslab" resolves to this clone's own kernelspec (scripts/kernel.mjs), never to
// whichever clone last registered a global one.
ensureProjectKernel();
const notebooks = readdirSync(nbDir)
  .filter((f) => f.endsWith(".ipynb") && (!filters.length || filters.some((s) => f.includes(s))))
  .sort();

const snapshots = snapshotter();
/**
 * The headless run reads the recorded runs only, so its outputs are the same on every machine: a user's own
 * workspaces (the README's main job, OPENMLE_WORKSPACE, OPENMLE_LOOP_WORKSPACE) never reach it.
 */
function headlessEnv() {
  const env = { ...notebookEnv(), PYDEVD_DISABLE_FILE_VALIDATION: "1", OPENMLE_NOTEBOOK_HEADLESS: "1" };
  for (const k of ["OPENMLE_WORKSPACE", "OPENMLE_LOOP_WORKSPACE", "OPENMLE_LOOP_ID"]) delete env[k];
  return env;
}

let passed = 0;
let failed = 0;
const stale = [];
for (const nb of notebooks) {
  const t0 = Date.now();
  const r = spawnSync(
    "jupyter",
    ["nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=900",
     "--ExecutePreprocessor.kernel_name=tslab", "--output-dir", outDir, join(nbDir, nb)],
    { cwd: nbDir, encoding: "utf8", env: headlessEnv() },
  );
  let errors = [];
  let done = null;
  if (r.status === 0) {
    done = JSON.parse(readFileSync(join(outDir, nb), "utf8"));
    errors = done.cells.flatMap((c) => (c.outputs ?? []).filter((o) => o.output_type === "error"));
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0 || errors.length) {
    failed++;
    console.log(`✗ ${nb} (${secs}s)`);
    const tail = (r.stderr || "").split("\n").filter((l) => !/Debugger warning|frozen modules|PYDEVD|Debugging will proceed/.test(l));
    console.log(tail.slice(-40).join("\n"));
    for (const e of errors) console.log(`${e.ename}: ${e.evalue}`);
    continue;
  }
  const name = nb.replace(/\.ipynb$/, "");
  const { nb: fresh } = prepareForCommit(done, name);
  if (update) {
    const figures = await snapshots.add(fresh);
    const file = join(nbDir, nb);
    writeFileSync(file, `${JSON.stringify(fresh, null, 1)}\n`);
    passed++;
    console.log(`✓ ${nb} (${secs}s) → notebooks/${nb} written (${(statSync(file).size / 1024).toFixed(0)} KiB, ${figures} figure snapshots)`);
    continue;
  }
  const diff = compareNotebooks(JSON.parse(readFileSync(join(nbDir, nb), "utf8")), fresh, { name: nb, root });
  if (diff) {
    failed++;
    stale.push(nb);
    console.log(`✗ ${nb} (${secs}s): outputs differ from the committed notebook (normalised)\n${diff}`);
  } else {
    passed++;
    console.log(`✓ ${nb} (${secs}s)`);
  }
}
await snapshots.close();
console.log(`notebooks: ${passed} passed, ${failed} failed (executed copies in ${outDir})`);
if (stale.length) {
  const only = stale.map((n) => n.replace(/\.ipynb$/, "")).join(" ");
  console.log(`committed outputs are stale: if the change is intended, run \`${UPDATE_HINT} -- ${only}\` and commit notebooks/`);
}
process.exit(failed ? 1 : 0);
