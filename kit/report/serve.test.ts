import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, test } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH, journalReader, MissingWorkspaceError, modebarOverlaps, PortInUseError, serveDashboard } from "./index.js";

const noChromium = !existsSync(CHROMIUM_PATH);
if (noChromium) console.warn(`dashboard test skipped: ${CHROMIUM_PATH} is not installed (apt-get install chromium)`);
const root = join(import.meta.dirname, "..", "..");

describe("openmle serve: a live dashboard beside a running evolve", () => {
  test("a missing workspace is refused with the fix", async () => {
    await expect(serveDashboard({ workspace: join(tmpdir(), "no-such-ws"), port: 0 })).rejects.toBeInstanceOf(MissingWorkspaceError);
  });

  test.skipIf(noChromium)("tree, best-score curve, current step and recent nodes update while a real evolve writes; the writer finishes unharmed", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "serve-")), "ws");
    // A real search in a second process: grammar policy, bubblewrap sandbox, the built-in penguins task.
    const child = spawn(process.execPath, [join(root, "bin", "openmle.js"), "evolve", "--task", "penguins", "--steps", "5", "--seed", "3", "--workspace", dir, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b) => (out += String(b)));
    const exited = new Promise<number | null>((ok) => child.on("exit", (code) => ok(code)));
    try {
      await expect.poll(() => existsSync(join(dir, "openmle.duckdb")), { timeout: 60_000 }).toBe(true);
      const dash = await serveDashboard({ workspace: dir, port: 0 });
      try {
        await expect(serveDashboard({ workspace: dir, port: Number(new URL(dash.url).port) })).rejects.toBeInstanceOf(PortInUseError);
        const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
        try {
          const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
          await page.goto(dash.url);
          const run = page.locator("section.run").first();
          await expect.poll(async () => Number((await run.getAttribute("data-done").catch(() => null)) ?? 0), { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
          await page.waitForSelector("section.run .tree[data-drawn='1'] svg.main-svg");
          await page.waitForSelector("section.run .curve[data-drawn='1'] svg.main-svg");
          expect(await page.locator("section.run .tree .scatterlayer .point").count()).toBeGreaterThanOrEqual(2);
          expect(await page.locator(".recent-node").count()).toBeGreaterThanOrEqual(2);
          expect(await run.locator(".current-step").innerText()).toMatch(/^\d+ \/ 5$/);
          expect(await run.locator(".nodes-per-min").innerText()).toMatch(/^\d+(\.\d+)? nodes\/min$/);
          // plotly's mode bar (shown on hover) never covers a chart title, at a wide and a narrow window.
          for (const width of [1400, 900]) {
            await page.setViewportSize({ width, height: 1000 });
            await page.waitForTimeout(300); // responsive relayout
            await page.locator("section.run .curve").first().hover();
            expect(await page.locator("section.run .modebar").count()).toBeGreaterThanOrEqual(2);
            expect(await modebarOverlaps(page)).toEqual([]);
          }
          await page.setViewportSize({ width: 1400, height: 1000 });
          await page.waitForTimeout(1500); // the responsive relayout and the next poll's redraw, before the screenshot
          mkdirSync(join(root, "reports", "screenshots"), { recursive: true });
          await page.screenshot({ path: join(root, "reports", "screenshots", "dashboard.png"), fullPage: true });
          // A second reader (as a notebook would) follows the same journal without touching the database.
          expect(journalReader(dir).read()[0]!.nodes.length).toBeGreaterThanOrEqual(2);
          expect(await exited).toBe(0);
          expect(JSON.parse(out).nodes).toBe(5);
          // Without reload, the page catches up with the finished run.
          await expect.poll(() => run.getAttribute("data-finished"), { timeout: 10_000 }).toBe("1");
          expect(await run.locator(".current-step").innerText()).toBe("5 / 5");
        } finally {
          await browser.close();
        }
      } finally {
        await dash.close();
      }
      const lines = readFileSync(join(dir, "journal", `${JSON.parse(out).run_id}.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l).type);
      expect(lines).toEqual(["run-start", "node", "node", "node", "node", "node", "run-end"]);
    } finally {
      if (child.exitCode === null) child.kill("SIGTERM");
    }
  }, 180_000);
});
