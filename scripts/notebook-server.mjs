#!/usr/bin/env node
// `npm run notebook [-- --port N]`: Jupyter Notebook (Debian's jupyter-notebook) on 127.0.0.1 serving
// notebooks/, with the TypeScript (tslab) kernel; prints the URL (with its token) and runs until Ctrl-C.
// The kernel name is read from `jupyter kernelspec list --json` (the spec whose argv runs tslab without
// --js), not assumed. Exit 1 with one line when Jupyter, the kernel or the port is missing.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fail = (msg) => {
  process.stderr.write(`openmle notebook: ${msg}\n`);
  process.exit(1);
};
const args = process.argv.slice(2);
const portArg = args.includes("--port") ? Number(args[args.indexOf("--port") + 1]) : 8888;
if (!Number.isInteger(portArg) || portArg < 0 || portArg > 65535) fail(`--port must be a port number, got "${args[args.indexOf("--port") + 1]}".`);
const dir = args.includes("--dir") ? args[args.indexOf("--dir") + 1] : join(root, "notebooks");

// This clone's own kernelspec (scripts/kernel.mjs writes .jupyter/kernels/tslab) comes first, so the
// server runs this clone's tslab even when another clone registered a global one.
const env = { ...process.env, JUPYTER_PATH: [join(root, ".jupyter"), process.env.JUPYTER_PATH].filter(Boolean).join(":"), BROWSER: "true" };
const specs = spawnSync("jupyter", ["kernelspec", "list", "--json"], { encoding: "utf8", env });
if (specs.error || specs.status !== 0) fail("Jupyter is not installed: run bash scripts/setup.sh (it installs Debian's jupyter-notebook).");
const kernels = Object.entries(JSON.parse(specs.stdout).kernelspecs).filter(([, k]) => k.spec.argv.some((a) => /tslab/.test(a)) && !k.spec.argv.includes("--js"));
if (!kernels.length) fail("no tslab (TypeScript) kernel is registered: run bash scripts/setup.sh.");
// Prefer the spec from this clone's folder (the list says where each one lives).
const own = kernels.find(([, k]) => k.resource_dir?.startsWith(join(root, ".jupyter")));
const kernel = (own ?? kernels[0])[0];

/** The port, or (0) any free one, checked free on 127.0.0.1 first so a clash gives one clear line. */
const port = await new Promise((ok) => {
  const s = createServer().once("error", () => fail(`port ${portArg} on 127.0.0.1 is in use: pass --port with a free one (--port 0 picks any).`));
  s.listen(portArg, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => ok(p));
  });
});
const token = randomBytes(16).toString("hex");
const jupyter = spawn("jupyter", [
  "notebook", "--no-browser", "--ip=127.0.0.1", `--port=${port}`, "--port-retries=0", `--notebook-dir=${dir}`,
  `--NotebookApp.token=${token}`, `--MappingKernelManager.default_kernel_name=${kernel}`,
  ...(process.getuid?.() === 0 ? ["--allow-root"] : []), // setup runs as root on the project's machines
], { stdio: ["ignore", "inherit", "pipe"], env });
let announced = false;
jupyter.stderr.on("data", (b) => {
  const text = String(b);
  if (process.env.OPENMLE_NOTEBOOK_VERBOSE) process.stderr.write(text);
  if (!announced && /is running at|Serving notebooks|Jupyter Notebook .* is running/.test(text)) {
    announced = true;
    process.stdout.write(`Jupyter Notebook (kernel ${kernel}) at http://127.0.0.1:${port}/tree?token=${token}\n`);
  }
});
const stop = () => jupyter.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
jupyter.on("exit", (code) => process.exit(code ?? 0));
