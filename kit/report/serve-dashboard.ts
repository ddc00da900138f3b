import { createServer, type Server } from "node:http";
import { isIP, type AddressInfo } from "node:net";
import { formatNodesPerMin, throughput } from "../eval/index.js";
import {
  HostUnavailableError,
  hostAllowed,
  listenError,
  reservedUnresolvable,
  WRONG_HOST_BODY,
} from "./dashboard-host.js";
import { MissingWorkspaceError } from "./errors.js";
import { escapeHtml, showBidiInJson } from "./format.js";
import { journalReader, type LiveRun } from "./live-journal.js";
import { clearOfModebar, plotlyScriptTag, type Figure } from "./plotly.js";
import { isWorkspaceDir } from "./run-view.js";
import { bestOverTimeFigure, searchTreeFigure } from "./tree-figures.js";

/** The page's default height and margins, with the title below the mode bar (plotly.ts: clearOfModebar). */
const clear = (f: Figure): Figure => ({
  ...f,
  layout: clearOfModebar({ height: 480, margin: { t: 48, r: 24, b: 40, l: 56 }, ...f.layout }),
});

const ms = (iso: string | null | undefined): number | null => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : null;
};

/**
 * A live run's nodes per minute, by kit/eval's throughput rule over the journal's times: first run-start to the
 * last run-end, or to the latest node while it runs (the journal keeps no program time: only the rate is used).
 */
export function liveNodesPerMin(r: Pick<LiveRun, "startedAt" | "endedAt" | "nodes">): number | null {
  return throughput({
    nodes: r.nodes.length,
    startedMs: ms(r.startedAt),
    endedMs: ms(r.endedAt),
    lastNodeMs: ms(r.nodes.at(-1)?.at),
    programS: 0,
    workers: 1,
  }).nodesPerMin;
}

/** What the dashboard page polls: per run its progress and nodes/min, figures (plotly JSON) and most recent nodes. */
export function dashboardState(runs: readonly LiveRun[]) {
  return {
    at: new Date().toISOString(),
    runs: runs.map((r) => {
      const sign = r.higherIsBetter ? 1 : -1;
      const nodesPerMin = liveNodesPerMin(r);
      let best: number | null = null;
      const trace = r.nodes.map((n, i) => {
        if (n.validScore !== null && (best === null || sign * n.validScore > sign * best)) best = n.validScore;
        return { run_id: r.runId, harness: r.harness, index: i, best };
      });
      return {
        runId: r.runId,
        taskId: r.taskId,
        harness: r.harness,
        steps: r.steps,
        done: r.nodes.length,
        finished: r.finished,
        nodesPerMin,
        nodesPerMinText: formatNodesPerMin(nodesPerMin),
        best,
        tree: clear(
          searchTreeFigure(
            r.nodes.map((n) => ({
              node_id: n.nodeId,
              step: n.step,
              generation: null,
              operator: n.operator,
              parents: n.parents,
              valid_score: n.validScore,
              status: n.status,
            })),
            {
              title: `Search tree of ${r.runId} (${r.harness} on ${r.taskId})`,
              higherIsBetter: r.higherIsBetter,
              champion: r.nodes.find((n) => n.validScore !== null && n.validScore === best)?.nodeId ?? null,
              widthPx: 800, // the tree's column at a 1400 px window
            },
          ),
        ),
        curve: clear(
          bestOverTimeFigure(trace, {
            title: `Best validation score so far (${r.higherIsBetter ? "higher" : "lower"} is better)`,
          }),
        ),
        recent: r.nodes
          .slice(-10)
          .reverse()
          .map((n) => ({
            node: n.nodeId,
            step: n.step,
            operator: n.operator,
            status: n.status,
            valid: n.validScore,
            family: n.methodFamily,
            at: n.at,
          })),
      };
    }),
  };
}

/** The dashboard page: plotly inlined (offline), polls /api/state every second and redraws with Plotly.react. */
export function dashboardHtml(workspace: string): string {
  const esc = escapeHtml;
  return `<!doctype html><html><head><meta charset="utf-8"><title>OpenMLE dashboard</title>
<style>body{font-family:system-ui,sans-serif;margin:20px}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 8px}
.run{border-top:2px solid #ddd;margin-top:16px}.figs{display:grid;grid-template-columns:3fr 2fr;gap:12px}.status-success{color:#2a7}.muted{color:#777}
.status-runtime_error,.status-timeout,.status-invalid_submission,.status-missing_code,.status-sandbox_error{color:#c33}</style>
${plotlyScriptTag()}</head><body><h1>OpenMLE dashboard</h1><p class="muted">Workspace <code>${esc(workspace)}</code> · read from its live journal (journal/*.jsonl), updated every second · <span id="updated">—</span></p>
<div id="runs"><p id="waiting">No run has written to this workspace's journal yet: start one with <code>openmle evolve --workspace ${esc(workspace)}</code>.</p></div>
<script>
var fmt=function(x){return x===null||x===undefined?"—":(Math.abs(x)>=1000||Number.isInteger(x)?String(Math.round(x)):Number(x.toPrecision(4)).toString());};
function ensure(r){var id="run-"+r.runId.replace(/[^A-Za-z0-9_-]/g,"_"), el=document.getElementById(id);
  if(el) return el; var w=document.getElementById("waiting"); if(w) w.remove();
  el=document.createElement("section"); el.className="run"; el.id=id;
  el.innerHTML='<h2></h2><p class="progress"></p><div class="figs"><div class="tree openmle-figure"></div><div><div class="curve openmle-figure"></div><table class="recent"><thead><tr><th>node</th><th>step</th><th>operator</th><th>status</th><th>valid</th><th>family</th></tr></thead><tbody></tbody></table></div></div>';
  document.getElementById("runs").appendChild(el); return el;}
function draw(div, fig){Plotly.react(div, fig.data, Object.assign({height:480, margin:{t:48,r:24,b:40,l:56}}, fig.layout), {displaylogo:false, responsive:true}).then(function(){div.setAttribute("data-drawn","1");});}
function render(s){document.getElementById("updated").textContent="updated "+s.at;
  s.runs.forEach(function(r){var el=ensure(r);
    el.querySelector("h2").textContent=r.runId+" · "+r.harness+" on "+r.taskId;
    var p=el.querySelector(".progress"); p.innerHTML=""; var b=document.createElement("b"); b.className="current-step"; b.textContent=r.done+" / "+r.steps;
    var v=document.createElement("b"); v.className="nodes-per-min"; v.textContent=r.nodesPerMinText;
    p.appendChild(document.createTextNode("nodes done ")); p.appendChild(b); p.appendChild(document.createTextNode(" · ")); p.appendChild(v); p.appendChild(document.createTextNode(" · best "+fmt(r.best)+" · "+(r.finished?"finished":"running")));
    el.setAttribute("data-done", r.done); el.setAttribute("data-finished", r.finished?"1":"0");
    draw(el.querySelector(".tree"), r.tree); draw(el.querySelector(".curve"), r.curve);
    var tb=el.querySelector(".recent tbody"); tb.innerHTML="";
    r.recent.forEach(function(n){var tr=document.createElement("tr"); tr.className="recent-node";
      [n.node,n.step,n.operator,n.status,fmt(n.valid),n.family].forEach(function(v,i){var td=document.createElement("td"); td.textContent=String(v); if(i===3) td.className="status-"+n.status; tr.appendChild(td);});
      tb.appendChild(tr);});});}
function poll(){fetch("/api/state").then(function(r){return r.json();}).then(render).catch(function(){}).finally(function(){setTimeout(poll,1000);});}
poll();
</script></body></html>`;
}

export interface DashboardServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * `openmle serve`: a live dashboard of a workspace on http://host:port (127.0.0.1 by default). Reads the
 * workspace's live journal only (see live-journal.ts), so it runs beside a writing `evolve` without
 * touching its database. Routes: `/` the page, `/api/state` the JSON it polls. A request whose Host header is
 * not a loopback name or `host` gets 403 (dashboard-host.ts: DNS rebinding); a `host` that cannot serve is a
 * HostUnavailableError.
 */
export async function serveDashboard(opts: {
  workspace: string;
  port?: number;
  host?: string;
}): Promise<DashboardServer> {
  if (!isWorkspaceDir(opts.workspace)) throw new MissingWorkspaceError(opts.workspace);
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 8765;
  if (reservedUnresolvable(host)) throw new HostUnavailableError(host, "cannot be resolved to an address");
  const reader = journalReader(opts.workspace);
  const page = dashboardHtml(opts.workspace);
  const server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, host)) {
      res.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end(WRONG_HOST_BODY);
    } else if (req.url === "/api/state") {
      res
        .writeHead(200, { "content-type": "application/json", "cache-control": "no-store" })
        .end(JSON.stringify(dashboardState(reader.read()), showBidiInJson));
    } else if (req.url === "/" || req.url === "/index.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    } else res.writeHead(404).end("not found");
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", (e: NodeJS.ErrnoException) => fail(listenError(e, host, port)));
    server.listen(port, host, () => ok());
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = isIP(host) === 6 ? `[${host}]` : host;
  return { url: `http://${shown}:${bound}/`, server, close: () => new Promise((ok) => server.close(() => ok())) };
}
