import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, test } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../kit/report/index.js";

const root = join(import.meta.dirname, "..");
const specs = spawnSync("jupyter", ["kernelspec", "list", "--json"], { encoding: "utf8" });
const kernel = specs.status === 0
  ? Object.entries((JSON.parse(specs.stdout) as { kernelspecs: Record<string, { spec: { argv: string[] } }> }).kernelspecs)
      .find(([, k]) => k.spec.argv.some((a) => a.includes("tslab")) && !k.spec.argv.includes("--js"))?.[0]
  : undefined;
const hasNotebook = spawnSync("jupyter", ["notebook", "--version"]).status === 0;
const skip = !existsSync(CHROMIUM_PATH) || !kernel || !hasNotebook;
if (skip) console.warn("notebook-server test skipped: needs chromium, jupyter-notebook and the tslab kernel (bash scripts/setup.sh)");

describe("npm run notebook: Jupyter in the browser with the TypeScript kernel", () => {
  test.skipIf(skip)("starts on 127.0.0.1, prints the URL; a notebook opened in Chromium runs a cell and shows its output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nbserver-"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "probe.ipynb"), JSON.stringify({
      nbformat: 4, nbformat_minor: 5,
      metadata: { kernelspec: { name: kernel, display_name: "TypeScript", language: "typescript" } },
      cells: [{ cell_type: "code", id: "probe", metadata: {}, execution_count: null, outputs: [], source: ["const answer: number = 20 + 22;\n", "`answer is ${answer}`"] }],
    }));
    const server = spawn(process.execPath, [join(root, "scripts", "notebook-server.mjs"), "--port", "0", "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      let out = "";
      server.stdout.on("data", (b) => (out += String(b)));
      await expect.poll(() => out, { timeout: 60_000 }).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/tree\?token=\w+/);
      const url = new URL(out.match(/http:\/\/\S+/)![0]);
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
      try {
        const page = await browser.newPage();
        await page.goto(`${url.origin}/notebooks/probe.ipynb?token=${url.searchParams.get("token")}`);
        await page.waitForFunction("window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()", undefined, { timeout: 60_000 });
        await page.locator(".cell .CodeMirror").first().click();
        await page.keyboard.press("Shift+Enter");
        await expect.poll(() => page.locator(".output_area").first().innerText().catch(() => ""), { timeout: 60_000 }).toContain("answer is 42");
        expect(await page.evaluate("Jupyter.notebook.kernel.name")).toBe(kernel);
      } finally {
        await browser.close();
      }
    } finally {
      server.kill("SIGTERM");
    }
  }, 150_000);
});
