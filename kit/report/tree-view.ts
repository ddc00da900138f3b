import { escapeHtml, formatValue, showBidiInJson } from "./format.js";
import { diffText, lineDiff } from "./line-diff.js";
import { figureHtml } from "./plotly.js";
import type { RunView, ViewNode } from "./run-view.js";
import { searchTreeFigure } from "./tree-figures.js";

/** What the node panel shows for one node (plain strings; the page builds the panel with textContent). */
export interface NodeDetail {
  readonly id: string;
  readonly title: string;
  readonly plan: string;
  readonly code: string;
  readonly diffs: readonly { readonly parent: string; readonly text: string }[];
  readonly output: string;
  readonly traceback: string;
  /** [field, value] pairs, formatted for people. */
  readonly card: readonly (readonly [string, string])[];
  readonly record: readonly (readonly [string, string])[];
}

const pairs = (o: Readonly<Record<string, unknown>>) =>
  Object.entries(o).map(([k, v]) => [k, formatValue(v) ?? "—"] as const);

/** The panel's content for each node: plan, code, diff to each parent, stdout tail, traceback, card and record. */
export function nodeDetails(nodes: readonly ViewNode[]): NodeDetail[] {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  return nodes.map((n) => ({
    id: n.nodeId,
    title:
      `${n.nodeId} · ${n.operator} · step ${n.step} · ` +
      `${n.status}${n.validScore === null ? "" : ` · valid ${formatValue(n.validScore)}`}`,
    plan: n.plan,
    code: n.code,
    diffs: n.parents.flatMap((p) => {
      const parent = byId.get(p);
      return parent ? [{ parent: p, text: diffText(lineDiff(parent.code, n.code)) }] : [];
    }),
    output: [n.stdoutTail, n.stderrTail].filter(Boolean).join("\n--- stderr ---\n"),
    traceback: n.traceback ?? "",
    card: pairs(n.card),
    record: pairs(n.record),
  }));
}

/** The page script (plain ES5, no dependencies): builds the panel for a node id and wires clicks and the picker. */
const PANEL_SCRIPT = `function openmleTreeView(figId, details){
  var fig=document.getElementById(figId), panel=document.getElementById(figId+"-panel"), pick=document.getElementById(figId+"-pick");
  var byId={}; details.forEach(function(d){byId[d.id]=d;});
  function el(tag, text, cls){var e=document.createElement(tag); if(text!==undefined) e.textContent=text; if(cls) e.className=cls; return e;}
  function block(title, text, cls){var s=el("details"); s.open=true; s.appendChild(el("summary", title)); s.appendChild(el("pre", text||"(empty)", cls)); return s;}
  function table(title, rows){var s=el("details"); s.appendChild(el("summary", title)); var t=el("table","", "openmle-table");
    rows.forEach(function(r){var tr=el("tr"); tr.appendChild(el("th", r[0])); tr.appendChild(el("td", r[1])); t.appendChild(tr);}); s.appendChild(t); return s;}
  function show(id){var d=byId[id]; if(!d) return; panel.innerHTML=""; panel.setAttribute("data-node", id);
    panel.appendChild(el("h4", d.title));
    panel.appendChild(block("Plan", d.plan));
    panel.appendChild(block("Code", d.code, "openmle-code"));
    d.diffs.forEach(function(x){panel.appendChild(block("Diff to parent "+x.parent, x.text, "openmle-diff"));});
    if(d.output) panel.appendChild(block("Output (stdout/stderr tail)", d.output));
    if(d.traceback) panel.appendChild(block("Traceback", d.traceback, "openmle-traceback"));
    panel.appendChild(table("Experience card", d.card)); panel.appendChild(table("Execution record", d.record));
    if(pick) pick.value=id;}
  if(pick) pick.addEventListener("change", function(){show(pick.value);});
  // Plotly may draw after this script; a static snapshot (no plotly) never does: back off, give up after ~1 min.
  (function attach(wait){ if(fig && fig.on) fig.on("plotly_click", function(ev){var p=ev.points&&ev.points[0]; if(p&&p.customdata) show(p.customdata);}); else if(wait<60000) setTimeout(function(){attach(wait*1.5);}, Math.min(wait, 5000)); })(50);
  window.openmleShowNode=window.openmleShowNode||{}; window.openmleShowNode[figId]=show;
}`;

/** CSS of the tree view (included once per page). */
export const TREE_VIEW_CSS =
  ".openmle-node-side{font-size:12px}" +
  `.openmle-node-panel{max-height:760px;overflow:auto;border:1px solid #ddd;padding:6px 10px}
.openmle-node-panel:empty{display:none}.openmle-node-panel pre{white-space:pre-wrap;background:#f7f7f7;padding:6px;max-height:360px;overflow:auto}
.openmle-node-panel summary{font-weight:600;cursor:pointer}`;

/**
 * The search tree of one run with a node panel: click a node (or pick it in the list) to see its plan, code,
 * diff to each parent, output tail, traceback, experience card and execution record. Self-contained (the
 * layout is computed here; the page needs plotly only), so it works in the single-file report and in notebooks.
 */
export function treeViewHtml(
  view: RunView,
  opts: { id: string; title?: string; champion?: string | null; withCss?: boolean },
): string {
  const fig = searchTreeFigure(
    view.nodes.map((n) => ({
      node_id: n.nodeId,
      step: n.step,
      generation: n.generation,
      operator: n.operator,
      parents: n.parents,
      valid_score: n.validScore,
      status: n.status,
    })),
    {
      title: opts.title ?? `Search tree of ${view.runId} (${view.harness})`,
      higherIsBetter: view.higherIsBetter,
      champion: opts.champion,
    },
  );
  const details = nodeDetails(view.nodes);
  // Every "<" as \u003c: a node's code may hold "</script>" or "<!--<script>", which would end or derail this tag.
  const json = JSON.stringify(details, showBidiInJson)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
  const options = view.nodes
    .map(
      (n) => `<option value="${escapeHtml(n.nodeId)}">${escapeHtml(`${n.nodeId} ${n.operator} ${n.status}`)}</option>`,
    )
    .join("");
  return (
    (opts.withCss ? `<style>${TREE_VIEW_CSS}</style>` : "") +
    (`<div class="openmle-tree">` +
      `${figureHtml(fig, { id: opts.id, title: opts.title ?? `Search tree of ${view.runId}` })}`) +
    (`<div class="openmle-node-side"><p>Click a node (or pick one: ` +
      `<select id="${opts.id}-pick"><option value="">—</option>${options}</select>) `) +
    (`to see its plan, code, diff to its parent(s), output, card and record.</p><div ` +
      `class="openmle-node-panel" id="${opts.id}-panel"></div></div></div>`) +
    `<script>${PANEL_SCRIPT}\nopenmleTreeView(${JSON.stringify(opts.id)}, ${json});</script>`
  );
}
