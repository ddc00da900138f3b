import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 10 point 12: setup in one clone re-pointed the globally registered tslab kernel at that
// clone, breaking another clone's notebooks. Now each clone has its own kernelspec, found first
// through JUPYTER_PATH by the notebook runner, and a global one is never rewritten.
const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const kernels = (env: NodeJS.ProcessEnv) => {
  const r = spawnSync("jupyter", ["kernelspec", "list", "--json"], { encoding: "utf8", env });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout).kernelspecs as Record<string, { resource_dir: string; spec: { argv: string[] } }>;
};

describe("the project's own tslab kernel", () => {
  it("resolves to this clone under the runner's environment and leaves another clone's kernel alone", async () => {
    // Another clone's kernel, registered where a user-level `tslab install` puts it.
    const data = mkdtempSync(join(tmpdir(), "openmle-jupyter-"));
    const other = join(data, "kernels", "tslab");
    mkdirSync(other, { recursive: true });
    const otherSpec = JSON.stringify({ argv: ["/elsewhere/other-clone/node_modules/.bin/tslab", "kernel", "--config-path", "{connection_file}"], display_name: "TypeScript", language: "typescript" });
    writeFileSync(join(other, "kernel.json"), otherSpec);
    const env = { ...process.env, JUPYTER_DATA_DIR: data, JUPYTER_PATH: "" };

    const reg = spawnSync(process.execPath, [join(root, "scripts/kernel.mjs")], { encoding: "utf8", env });
    expect(reg.status, reg.stderr).toBe(0);
    expect(reg.stdout.trim()).toBe(join(root, ".jupyter", "kernels", "tslab"));

    // @ts-expect-error -- a plain .mjs script without type declarations
    const { notebookEnv } = (await import("./kernel.mjs")) as { notebookEnv: (e: NodeJS.ProcessEnv) => NodeJS.ProcessEnv };
    const mine = kernels(notebookEnv(env)).tslab!;
    expect(mine.resource_dir).toBe(join(root, ".jupyter", "kernels", "tslab"));
    expect(mine.spec.argv[0]).toBe(join(root, "node_modules", ".bin", "tslab"));
    // Outside the runner, Jupyter still sees the other clone's kernel, byte for byte as it was.
    expect(kernels(env).tslab!.spec.argv[0]).toBe("/elsewhere/other-clone/node_modules/.bin/tslab");
    expect(readFileSync(join(other, "kernel.json"), "utf8")).toBe(otherSpec);
  });

  it("setup.sh's kernel step leaves an existing global tslab kernel as it was", () => {
    const data = mkdtempSync(join(tmpdir(), "openmle-jupyter-"));
    mkdirSync(join(data, "kernels", "tslab"), { recursive: true });
    const otherSpec = JSON.stringify({ argv: ["/elsewhere/other-clone/node_modules/.bin/tslab", "kernel", "--config-path", "{connection_file}"], display_name: "TypeScript", language: "typescript" });
    writeFileSync(join(data, "kernels", "tslab", "kernel.json"), otherSpec);
    // Step 5 of setup.sh exactly as written, with setup's prologue (the earlier steps install packages).
    const setup = readFileSync(join(root, "scripts/setup.sh"), "utf8");
    const step = setup.slice(setup.indexOf("# 5."), setup.indexOf('say "done"'));
    const r = spawnSync("bash", ["-c", `set -euo pipefail\ncd "${root}"\nROOT=$(pwd)\nsay() { echo "$*"; }\n${step}`], {
      encoding: "utf8", env: { ...process.env, JUPYTER_DATA_DIR: data, JUPYTER_PATH: "" },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/a global tslab kernel exists; left as is/);
    expect(readFileSync(join(data, "kernels", "tslab", "kernel.json"), "utf8")).toBe(otherSpec);
  });
});
