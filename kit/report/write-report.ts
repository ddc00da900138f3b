import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { evaluate, loadSearchRows, searchEfficiency, type EvaluateOptions, type MeanStd } from "../eval/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { openInChromium, type DrawnFigure } from "./chromium.js";
import { ReportConfig } from "./config.js";
import { htmlTable } from "./html-table.js";
import { figureHtml, plotlyScriptTag } from "./plotly.js";
import { reportFigures, type NamedFigure } from "./report-figures.js";

/** ReportConfig fields (config.ts: defaults and docs) plus evaluation options, clock and events. */
export interface ReportOptions extends EvaluateOptions, Partial<ReportConfig> {
  /** The clock, for the "generated at" line. */
  readonly now?: () => Date;
  readonly onEvent?: (e: { type: "evaluated" | "html-written" | "png-written"; path?: string; runs?: number }) => void;
}

export interface ReportResult {
  readonly html: string;
  readonly summary: string;
  readonly figures: readonly DrawnFigure[];
  readonly pngs: readonly string[];
}

const ms = (m: MeanStd, digits = 3) => (m.n ? `${m.mean.toFixed(digits)} ± ${m.std.toFixed(digits)} (n=${m.n})` : "—");
const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** The report page: tables and figures, with plotly inlined once (self-contained, works offline). */
export function reportHtml(parts: { title: string; generatedAt: string; workspace: string; tables: { caption: string; html: string }[]; figures: readonly NamedFigure[]; note?: string }): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(parts.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;max-width:1100px}table{border-collapse:collapse;margin:8px 0 24px;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}caption{text-align:left;font-weight:600;padding:4px 0}.openmle-figure{margin-bottom:24px}</style>
${plotlyScriptTag()}</head><body><h1>${esc(parts.title)}</h1>
<p>Workspace <code>${esc(parts.workspace)}</code>, generated ${esc(parts.generatedAt)} by the OpenMLE kit (measured from the workspace's rows).</p>
${parts.note ? `<p>${esc(parts.note)}</p>` : ""}
${parts.tables.map((t) => `<section>${t.html}</section>`).join("\n")}
${parts.figures.map((f) => `<section><h3>${esc(f.title)}</h3>${figureHtml(f.figure, { id: f.id, title: f.title })}</section>`).join("\n")}
</body></html>`;
}

/**
 * Write a report of a workspace to `outDir`: `index.html` (one self-contained file), `summary.json`
 * (evaluation and search-efficiency numbers) and, unless `png: false`, one PNG per figure drawn by
 * headless Chromium. Steps: 1. evaluate runs; 2. search statistics; 3. figures; 4. HTML; 5. PNGs.
 */
export async function writeReport(workspace: string | Workspace, outDir: string, opts: ReportOptions = {}): Promise<ReportResult> {
  const cfg = ReportConfig.parse({ title: opts.title, png: opts.png, maxTrees: opts.maxTrees, temperature: opts.temperature, chromiumPath: opts.chromiumPath });
  const ws = typeof workspace === "string" ? await openWorkspace(workspace, { readOnly: true }) : workspace;
  try {
    const evaluation = await evaluate(ws, opts);
    const search = await loadSearchRows(ws);
    const efficiency = searchEfficiency(search.nodes, search.calls, (id) => search.higherIsBetter.get(id) ?? true);
    const poolRows = await ws.query<{ run_id: string; node_id: string; utility: number; operator: string }>(
      `SELECT c.run_id, c.node_id, c.utility AS utility, coalesce(c.operator, 'unknown') AS operator
       FROM cards c LEFT JOIN nodes n USING (run_id, node_id)
       WHERE c.utility IS NOT NULL AND coalesce(n.admitted, true) ORDER BY c.run_id, c.node_id`,
    );
    const pools = new Map<string, { node_id: string; utility: number; operator: string }[]>();
    for (const r of poolRows) pools.set(r.run_id, [...(pools.get(r.run_id) ?? []), r]);
    opts.onEvent?.({ type: "evaluated", runs: evaluation.runs.length });

    const figures = reportFigures({ evaluation, efficiency, search, pools }, cfg);
    const groupRows = evaluation.groups.map((g) => ({
      group: g.group, harness: g.harness, policy: g.policy, config_hash: g.config_hash, tasks: g.tasks, k: g.k,
      valid_rate: ms(g.valid_rate), medal_average: ms(g.medal_average), human_rank: ms(g.human_rank), normalized: ms(g.normalized),
      gold: g.grades.gold, silver: g.grades.silver, bronze: g.grades.bronze, no_medal: g.grades.none, invalid: g.grades.invalid, ungraded: g.grades.ungraded,
    }));
    const tables = [
      { caption: "Groups (harness + policy + config hash), avg@k over independent runs", html: htmlTable(groupRows, { caption: "Evaluation by group (avg@k, mean ± std)" }) },
      { caption: "Tasks", html: htmlTable(evaluation.tasks.map((t) => ({ ...t })), { caption: "Per task", maxRows: 200 }) },
      { caption: "Search efficiency per run", html: htmlTable(efficiency.runs.map((r) => ({ ...r })), { caption: "Search efficiency per run", maxRows: 200 }) },
      { caption: "Per operator", html: htmlTable(efficiency.operators.map((o) => ({ ...o })), { caption: "Per operator: prompt-size percentiles (characters), tokens, share of validation gain" }) },
    ].filter((t) => !t.html.includes("<thead><tr></tr></thead>"));
    const out = resolve(outDir);
    mkdirSync(out, { recursive: true });
    const html = join(out, "index.html");
    writeFileSync(html, reportHtml({
      title: cfg.title, generatedAt: (opts.now ?? (() => new Date()))().toISOString(), workspace: ws.dir, tables, figures,
      note: evaluation.runs.length ? undefined : "This workspace has no finished runs yet: nothing is measured.",
    }));
    opts.onEvent?.({ type: "html-written", path: html });
    const summary = join(out, "summary.json");
    writeFileSync(summary, `${JSON.stringify({ workspace: ws.dir, groups: evaluation.groups, tasks: evaluation.tasks, runs: evaluation.runs, efficiency, figures: figures.map((f) => ({ id: f.id, title: f.title })) }, null, 2)}\n`);

    let drawn: DrawnFigure[] = figures.map((f) => ({ id: f.id, title: f.title, drawn: false, hasSvg: false }));
    if (cfg.png && figures.length) {
      drawn = await openInChromium(html, { pngDir: join(out, "png"), executablePath: cfg.chromiumPath });
      for (const f of drawn) if (f.png) opts.onEvent?.({ type: "png-written", path: f.png });
    }
    return { html, summary, figures: drawn, pngs: drawn.flatMap((f) => (f.png ? [f.png] : [])) };
  } finally {
    if (typeof workspace === "string") ws.close();
  }
}
