#!/usr/bin/env node
// This project's own tslab kernelspec: <root>/.jupyter/kernels/tslab/kernel.json, starting
// <root>/node_modules/.bin/tslab. Jupyter looks in JUPYTER_PATH before the user and system kernel
// folders, so with notebookEnv() the kernel named "tslab" (the notebooks' kernelspec) is this
// clone's, whatever a global "tslab" kernel points at; registering it never touches other clones.
// Usage: node scripts/kernel.mjs   (writes the kernelspec and prints its folder)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

/** The JUPYTER_PATH entry holding this project's kernels. */
export const kernelsHome = (root = ROOT) => join(root, ".jupyter");

/** Write (or refresh) the project's tslab kernelspec; returns its folder. */
export function ensureProjectKernel(root = ROOT) {
  const dir = join(kernelsHome(root), "kernels", "tslab");
  const spec = {
    argv: [join(root, "node_modules", ".bin", "tslab"), "kernel", "--config-path", "{connection_file}"],
    display_name: "TypeScript",
    language: "typescript",
    metadata: { openmle_project: root },
  };
  const text = `${JSON.stringify(spec, null, 1)}\n`;
  let current = "";
  try {
    current = readFileSync(join(dir, "kernel.json"), "utf8");
  } catch {
    /* not there yet */
  }
  if (current !== text) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "kernel.json"), text);
  }
  return dir;
}

/** The environment under which Jupyter finds this project's kernel first. */
export function notebookEnv(env = process.env, root = ROOT) {
  return { ...env, JUPYTER_PATH: [kernelsHome(root), env.JUPYTER_PATH].filter(Boolean).join(":") };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${ensureProjectKernel()}\n`);
}
