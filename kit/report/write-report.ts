import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  evaluate,
  loadRunStats,
  loadSearchRows,
  loadThroughput,
  searchEfficiency,
  type EvaluateOptions,
} from "../eval/index.js";
import { openWorkspace, WorkspaceLockedError, type Workspace } from "../store/index.js";
import { openInChromium, type DrawnFigure } from "./chromium.js";
import { ReportConfig } from "./config.js";
import { MissingWorkspaceError, ReportError } from "./errors.js";
import { escapeHtml, formatNumber } from "./format.js";
import { analysisFigureSet } from "./analysis-figures.js";
import { htmlTable } from "./html-table.js";
import { timeSplit, timeSplitTable } from "./time-split.js";
import { evaluationTables } from "./evaluation-tables.js";
import { figureHtml, plotlyScriptTag } from "./plotly.js";
import { omittedHtml, reportFigureSet, type NamedFigure, type OmittedFigure } from "./report-figures.js";
import { resultHtml, resultRow, runResult, type RunResult } from "./result-section.js";
import { isWorkspaceDir, loadRunViews, type RunView } from "./run-view.js";
import { defaultSelectionStep, selectionAtStep, selectionAtStepFigure } from "./selection-at-step.js";
import { TREE_VIEW_CSS, treeViewHtml } from "./tree-view.js";

/** ReportConfig fields (config.ts: defaults and docs) plus evaluation options, clock and events. */
export interface ReportOptions extends EvaluateOptions, Partial<ReportConfig> {
  /** The clock, for the "generated at" line. */
  readonly now?: () => Date;
  readonly onEvent?: (e: { type: "evaluated" | "html-written" | "png-written"; path?: string; runs?: number }) => void;
}

export interface ReportResult {
  readonly html: string;
  readonly summary: string;
  /** best_solution.py: the champion's program (of the run, or of the best run of the workspace's task); null without
   * one. */
  readonly bestSolution: string | null;
  readonly figures: readonly DrawnFigure[];
  readonly pngs: readonly string[];
  readonly svgs: readonly string[];
  /** The runs shown, with their headline numbers. */
  readonly results: readonly RunResult[];
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

const CSS =
  "body{font-family:system-ui,sans-serif;margin:24px;max-width:1280px}" +
  `table{border-collapse:collapse;margin:8px 0 24px;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}caption{text-align:left;font-weight:600;padding:4px 0}
.openmle-figure{margin-bottom:24px}.openmle-muted{color:#777}.openmle-warn{color:#b3261e}.openmle-missing{color:#999;cursor:help}
.openmle-headline th{background:#f4f4f4;width:170px}.openmle-code{white-space:pre;overflow:auto;max-height:420px;background:#f7f7f7;padding:8px;font-size:12px}
section.openmle-run{border-top:2px solid #ddd;margin-top:24px}${TREE_VIEW_CSS}`;

/** The report page (plotly inlined once, self-contained, works offline). */
export function reportHtml(parts: {
  title: string;
  generatedAt: string;
  workspace: string;
  sections: readonly string[];
  tables: { html: string }[];
  figures: readonly NamedFigure[];
  omitted?: readonly OmittedFigure[]; // figures with nothing to show: one line each, not an empty chart
  note?: string;
  warnings?: readonly string[]; // what the evaluation left out and why (a stale corpus leaderboard), one line each
}): string {
  return (
    `<!doctype html><html><head><meta ` +
    `charset="utf-8"><title>${escapeHtml(parts.title)}</title><style>${CSS}</style>
${plotlyScriptTag()}</head><body><h1>${escapeHtml(parts.title)}</h1>
<p class="openmle-muted">Workspace <code>${escapeHtml(parts.workspace)}</code>, generated ${escapeHtml(parts.generatedAt)} by the OpenMLE kit (measured from the workspace's rows).</p>
${parts.note ? `<p>${escapeHtml(parts.note)}</p>` : ""}
${(parts.warnings ?? []).map((w) => `<p class="openmle-warn">${escapeHtml(w)}</p>`).join("\n")}
${parts.sections.join("\n")}
${parts.tables.length || parts.figures.length ? "<h2>Evaluation and search statistics</h2>" : ""}${omittedHtml(parts.omitted ?? [])}
${parts.tables.map((t) => `<section>${t.html}</section>`).join("\n")}
${parts.figures.map((f) => `<section><h3>${escapeHtml(f.title)}</h3>${figureHtml(f.figure, { id: f.id, title: f.title })}</section>`).join("\n")}
</body></html>`
  );
}

/** A read-only handle; a workspace a running evolve holds says how to watch it instead. */
async function openReadOnly(dir: string): Promise<Workspace> {
  try {
    return await openWorkspace(dir, { readOnly: true });
  } catch (e) {
    if (e instanceof WorkspaceLockedError)
      throw new ReportError(
        `workspace ${dir} is being written by a running search (${e.holder}): watch it with openmle ` +
          `serve --workspace ${dir}, and report once it has finished.`,
      );
    throw e;
  }
}

/** The run whose champion becomes best_solution.py: the single run, or the best champion among runs of the most common
 * task. */
function bestRun(views: readonly RunView[], results: readonly RunResult[]): number | null {
  const counts = new Map<string, number>();
  for (const v of views) counts.set(v.taskId, (counts.get(v.taskId) ?? 0) + 1);
  const task = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  let best: number | null = null;
  views.forEach((v, i) => {
    const c = results[i]!.champion;
    if (v.taskId !== task || !c) return;
    if (best === null || c.fitness! > results[best]!.champion!.fitness!) best = i;
  });
  return best;
}

/**
 * Write a report of a workspace, or of one run (`run`), to `outDir`: `index.html` (one self-contained file),
 * `summary.json`, `best_solution.py` and, unless `png: false`, `png/<figure>.png` (2×) and `svg/<figure>.svg`.
 * Steps: 1. load the runs (nodes, records, cards); 2. evaluate them; 3. per run shown: the result, the champion's
 * code, the search tree with its node panel, the parent-selection distribution at a step; 4. evaluation tables
 * and figures; 5. HTML, summary, best_solution.py; 6. figures drawn in headless Chromium, exported as PNG and SVG.
 */
export async function writeReport(
  workspace: string | Workspace,
  outDir: string,
  opts: ReportOptions = {},
): Promise<ReportResult> {
  const cfg = ReportConfig.parse({
    title: opts.title,
    png: opts.png,
    maxTrees: opts.maxTrees,
    temperature: opts.temperature,
    chromiumPath: opts.chromiumPath,
    run: opts.run,
    step: opts.step,
    gapThreshold: opts.gapThreshold,
  });
  if (typeof workspace === "string" && !isWorkspaceDir(workspace)) throw new MissingWorkspaceError(workspace);
  const ws = typeof workspace === "string" ? await openReadOnly(workspace) : workspace;
  try {
    // 1.–2. Runs and their evaluation.
    const views = await loadRunViews(ws, cfg.run);
    const runIds = views.map((v) => v.runId);
    const evaluation = await evaluate(ws, { ...opts, runIds });
    const graded = new Map(evaluation.runs.map((r) => [r.run_id, r]));
    const loaded = await loadSearchRows(ws);
    const shown = new Set(runIds);
    const search = {
      ...loaded,
      nodes: loaded.nodes.filter((n) => shown.has(n.run_id)),
      calls: loaded.calls.filter((c) => shown.has(c.run_id)),
    };
    const efficiency = searchEfficiency(search.nodes, search.calls, (id) => search.higherIsBetter.get(id) ?? true);
    opts.onEvent?.({ type: "evaluated", runs: views.length });
    const speed = new Map((await loadThroughput(ws, runIds)).map((t) => [t.runId, t]));
    const results = views.map((v) =>
      runResult(v, graded.get(v.runId), {
        baselines: opts.baselines?.[v.taskId],
        gapThreshold: cfg.gapThreshold,
        throughput: speed.get(v.runId),
      }),
    );
    const best = bestRun(views, results);

    // 3. One section per run shown.
    const sections: string[] = [];
    const selectionFigures: NamedFigure[] = [];
    if (views.length > 1)
      sections.push(
        htmlTable(results.map(resultRow), {
          caption: `Runs (${views.length})`,
          maxRows: 200,
          reasons: {
            champion: "no node ran and produced a validation score",
            validation: "no scored node",
            "val – test gap": "the champion lacks a validation or a hidden test score",
            "hidden test": "the champion's submission was not scored on the hidden split",
            grade: "no leaderboard for this task (MLE-bench Lite or a current corpus one)",
          },
        }),
      );
    views.slice(0, Math.max(1, cfg.maxTrees)).forEach((v, i) => {
      const id = slug(v.runId);
      const parts = [
        resultHtml(results[i]!, { status: v.status, solutionFile: i === best ? "best_solution.py" : undefined }),
      ];
      parts.push(
        `<h3>Search tree</h3>${treeViewHtml(v, { id: `tree-${id}`, champion: results[i]!.champion?.nodeId ?? null })}`,
      );
      if (v.config) {
        const step = cfg.step ?? defaultSelectionStep(v.nodes, v.config);
        if (step !== null) {
          const sel = selectionAtStep(v.nodes, v.config, step);
          const title = `Parent selection at step ${step} of ${v.runId}: three-factor vs AIRA-Evo`;
          const fig = { id: `selection-${id}`, title, figure: selectionAtStepFigure(sel) };
          selectionFigures.push(fig);
          const sampled = sel.sampledBy
            ? `; this run sampled with the ${sel.sampledBy} rule`
            : `; ${escapeHtml(v.harness)} selects parents by its own rule, ` +
              "so both bars are what the island harnesses would have used";
          parts.push(
            `<h3>${escapeHtml(title)}</h3><p class="openmle-muted">The distribution the island ` +
              "harnesses sample parents from at this step, recomputed from the stored tree (nodes " +
              `issued before step ${step}, island ${sel.island}) with kit/evo's selection functions` +
              `${sampled}.</p>${figureHtml(fig.figure, { id: fig.id, title })}`,
          );
        }
      }
      sections.push(`<section class="openmle-run">${parts.join("\n")}</section>`);
    });

    // 4. Evaluation tables and figures.
    const { figures, omitted } = reportFigureSet({ evaluation, efficiency, search }, { maxTrees: 0 });
    const analysis = analysisFigureSet(await loadRunStats(ws, runIds));
    figures.push(...analysis.figures);
    omitted.push(...analysis.omitted);
    const tables = [...evaluationTables(evaluation, efficiency), timeSplitTable(await timeSplit(ws))]
      .filter((t) => !t.includes("<thead><tr></tr></thead>"))
      .map((html) => ({ html }));

    // 5. Files.
    const out = resolve(outDir);
    mkdirSync(out, { recursive: true });
    const html = join(out, "index.html");
    writeFileSync(
      html,
      reportHtml({
        title: cfg.title,
        generatedAt: (opts.now ?? (() => new Date()))().toISOString(),
        workspace: ws.dir,
        sections,
        tables,
        figures,
        omitted,
        warnings: evaluation.warnings,
        note:
          views.length > cfg.maxTrees
            ? `${views.length} runs: the first ${cfg.maxTrees} are shown in full (report --run RUN for another).`
            : undefined,
      }),
    );
    opts.onEvent?.({ type: "html-written", path: html });
    let bestSolution: string | null = null;
    if (best !== null) {
      const c = results[best]!.champion!;
      bestSolution = join(out, "best_solution.py");
      writeFileSync(
        bestSolution,
        `# Champion ${c.nodeId} of run ${views[best]!.runId} (${views[best]!.harness}) on ` +
          `${views[best]!.taskId}: validation ${formatNumber(c.validScore!)}, hidden test ` +
          `${c.testScore === null ? "not scored" : formatNumber(c.testScore)}\n` +
          `${c.code}${c.code.endsWith("\n") ? "" : "\n"}`,
      );
    }
    const summary = join(out, "summary.json");
    writeFileSync(
      summary,
      `${JSON.stringify(
        {
          workspace: ws.dir,
          runs: results.map(({ champion, ...r }) => ({
            ...r,
            champion: champion && {
              nodeId: champion.nodeId,
              operator: champion.operator,
              methodFamily: champion.methodFamily,
            },
          })),
          groups: evaluation.groups,
          tasks: evaluation.tasks,
          evaluation: evaluation.runs,
          efficiency,
          omitted_figures: omitted,
          best_solution: bestSolution,
        },
        null,
        2,
      )}\n`,
    );

    // 6. Figures in Chromium.
    const all = [...selectionFigures, ...figures];
    let drawn: DrawnFigure[] = [
      ...views
        .slice(0, Math.max(1, cfg.maxTrees))
        .map((v) => ({ id: `tree-${slug(v.runId)}`, title: `Search tree of ${v.runId}` })),
      ...all,
    ].map((f) => ({ id: f.id, title: f.title, drawn: false, hasSvg: false }));
    if (cfg.png) {
      drawn = await openInChromium(html, {
        pngDir: join(out, "png"),
        svgDir: join(out, "svg"),
        executablePath: cfg.chromiumPath,
      });
      for (const f of drawn) if (f.png) opts.onEvent?.({ type: "png-written", path: f.png });
    }
    return {
      html,
      summary,
      bestSolution,
      figures: drawn,
      pngs: drawn.flatMap((f) => (f.png ? [f.png] : [])),
      svgs: drawn.flatMap((f) => (f.svg ? [f.svg] : [])),
      results,
    };
  } finally {
    if (typeof workspace === "string") ws.close();
  }
}
