// A finished experiment for people and for the record: the table as Markdown, HTML and PNG (the paper's rows
// labelled "paper (reference)"), and a provenance footer (commit, config hash, machine, wall time).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, hostname, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { packageRoot } from "../eval/index.js";
import { CHROMIUM_PATH, figureHtml, htmlTable, openInChromium, pagePng, type Figure } from "../report/index.js";
import { configHash } from "../store/index.js";
import { ReproduceError } from "./errors.js";
import { presetTitle, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import { tableMarkdown, tableRecords, type TableRow } from "./search-table.js";

/** A table shown under the experiment's own (the paired comparison, the validation → test transfer). */
export interface ExtraTable {
  readonly markdown: string;
  readonly html: string;
}

export interface Provenance {
  readonly commit: string;
  readonly configHash: string;
  readonly machine: string;
  readonly wallS: number;
  /** Σ of the wall time of the cells' evolve runs (search cells; null otherwise): the cost when laid out again. */
  readonly cellsWallS: number | null;
  /** Where this call ran its programs, e.g. "local, warm start" (null: nothing ran, or not said). */
  readonly sandbox: string | null;
  readonly finishedAt: string;
}

/** The commit of the kit's checkout ("unknown" outside a git checkout). */
function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: packageRoot(), encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

export function provenance(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  wallS: number,
  now = new Date(),
  cellsWallS: number | null = null,
  sandbox: string | null = null,
): Provenance {
  const gib = (totalmem() / 2 ** 30).toFixed(0);
  return {
    commit: commit(),
    configHash: configHash({ id: spec.id, preset: spec.presets[preset] }),
    machine: `${hostname()}: ${cpus().length} cores, ${gib} GiB`,
    wallS,
    cellsWallS,
    sandbox,
    finishedAt: now.toISOString(),
  };
}

const footer = (p: Provenance) =>
  `commit ${p.commit} · config ${p.configHash} · ${p.machine} · wall time ${(p.wallS / 60).toFixed(1)} min` +
  (p.cellsWallS === null ? "" : ` (the cells' runs: ${(p.cellsWallS / 60).toFixed(1)} min)`) +
  (p.sandbox ? ` · sandbox ${p.sandbox}` : "") +
  ` · finished ${p.finishedAt}`;

/** The Markdown of one experiment: title, question, table, the laptop note, provenance. */
export function experimentMarkdown(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  rows: readonly TableRow[],
  p: Provenance,
  extras: readonly ExtraTable[] = [],
): string {
  return [
    `# ${spec.title} (${presetTitle(spec, preset)})`,
    "",
    `${spec.paperItem}. ${spec.question}`,
    "",
    tableMarkdown(rows),
    "",
    ...extras.flatMap((x) => [x.markdown, ""]),
    ...experimentNotes(spec, preset).flatMap((n) => [n, ""]),
    footer(p),
    "",
  ].join("\n");
}

/** What the table's numbers mean beyond its header: the laptop note (units, scale) and whose rows are whose. */
export function experimentNotes(spec: ExperimentSpec, preset: ReproducePreset): string[] {
  return [
    ...(spec.laptopNote && preset !== "paper" ? [`Note: ${spec.laptopNote}.`] : []),
    `Rows labelled "paper (reference)" are the paper's numbers (docs/paper-map.md), not the kit's.`,
  ];
}

// Plain and print-like: the PNG is this page as Chromium draws it.
const PAGE_CSS =
  "body{font-family:sans-serif;margin:24px}h1{font-size:22px}" +
  "table{border-collapse:collapse;font-size:14px}caption{text-align:left;padding:4px 0;color:#555}" +
  "th,td{padding:5px 10px;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}" +
  "th{border-bottom:2px solid #999}";

/**
 * Writes table.md and table.html under `out` (writeExperimentPng screenshots the page), with the extra tables under
 * the experiment's; returns their paths.
 */
export function writeExperiment(
  out: string,
  spec: ExperimentSpec,
  preset: ReproducePreset,
  rows: readonly TableRow[],
  p: Provenance,
  extras: readonly ExtraTable[] = [],
): { markdown: string; html: string } {
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  const markdown = join(dir, "table.md");
  const html = join(dir, "table.html");
  writeFileSync(markdown, experimentMarkdown(spec, preset, rows, p, extras));
  const full = tableRecords(rows);
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><title>${esc(spec.title)}</title>\n<style>${PAGE_CSS}</style>\n` +
      `<h1>${esc(spec.title)}</h1>\n` +
      `<p>${esc(`${spec.paperItem}. ${spec.question}`)}</p>\n${htmlTable(full, { caption: `${preset} preset` })}\n` +
      extras.map((x) => `${x.html}\n`).join("") +
      experimentNotes(spec, preset)
        .map((n) => `<p>${esc(n)}</p>\n`)
        .join("") +
      `<p><small>${esc(footer(p))}</small></p>\n`,
  );
  return { markdown, html };
}

/** table.png beside table.html: the rendered page screenshotted by headless Chromium (kit/report `pagePng`). */
export async function writeExperimentPng(html: string, executablePath = CHROMIUM_PATH): Promise<string> {
  try {
    return await pagePng(html, join(dirname(html), "table.png"), { executablePath });
  } catch (e) {
    throw new ReproduceError(
      `could not render table.png with Chromium at ${executablePath} (${(e as Error).message.split("\n")[0]}): ` +
        "install it (scripts/setup.sh), set OPENMLE_CHROMIUM, or pass --no-png",
    );
  }
}

/**
 * figure.html (self-contained: plotly inlined, works offline) under `out` and, unless `png` is false, figure.png
 * (the drawn figure at 2× device pixels, headless Chromium); returns their paths.
 */
export async function writeExperimentFigure(
  out: string,
  fig: Figure,
  opts: { readonly png?: boolean; readonly executablePath?: string } = {},
): Promise<{ html: string; png?: string }> {
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  const html = join(dir, "figure.html");
  const title = String((fig.layout?.title as string | undefined) ?? "figure");
  writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><title>${title.replace(/</g, "&lt;")}</title>\n` +
      figureHtml(fig, { includePlotly: true, id: "figure", height: 480, title }),
  );
  if (opts.png === false) return { html };
  const shots = mkdtempSync(join(tmpdir(), "openmle-figure-"));
  try {
    const [drawn] = await openInChromium(html, { pngDir: shots, executablePath: opts.executablePath ?? CHROMIUM_PATH });
    if (!drawn?.png) throw new Error("the figure did not draw");
    copyFileSync(drawn.png, join(dir, "figure.png"));
    return { html, png: join(dir, "figure.png") };
  } catch (e) {
    throw new ReproduceError(
      `could not render figure.png with Chromium (${(e as Error).message.split("\n")[0]}): install it ` +
        "(scripts/setup.sh), set OPENMLE_CHROMIUM, or pass --no-png",
    );
  } finally {
    rmSync(shots, { recursive: true, force: true });
  }
}
