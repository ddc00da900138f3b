// Committed notebook outputs (issue 26 item 5): what an executed notebook keeps when written back to
// notebooks/*.ipynb, and the normalised comparison the headless run makes against the committed copy.
// Pure functions over parsed .ipynb JSON; scripts/run-notebooks.mjs does the I/O.
import { createTwoFilesPatch } from "diff";

/**
 * What legitimately differs between two runs of the same notebook, masked only for the comparison (the
 * committed file keeps the real values, so it reads as a real run on a code host). Each rule: a pattern and
 * its mask. Order matters: timestamps before bare times, paths before ids found inside them.
 */
export const MASKS = [
  // ISO timestamps (runs.started_at, provenance lines) and locale date-times.
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}| ?UTC)?/g, "<time>"],
  // Temporary folders the notebooks create (mkdtemp: /tmp/nb04-AbC123/ws, os.tmpdir() children).
  [/\/tmp\/[A-Za-z0-9._-]+(\/[^\s"'<>,;:)\]]*)?/g, "<tmp>"],
  // Git commits (provenance, report headers): 40 hex, or 7–12 hex right after the word.
  [/\b[0-9a-f]{40}\b/g, "<commit>"],
  [/\b(commit[ :=]+)[0-9a-f]{7,12}\b/gi, "$1<commit>"],
  // Throughput and wall times: "3.4 nodes/min", "(12.5 s)", "850 ms", "wall 1.2 min".
  [/\b\d+(\.\d+)?( ?)nodes\/min\b/g, "<n>$2nodes/min"],
  [/\b\d+(\.\d+)?( ?)(ms|s|sec|min)\b(?!\w)/g, "<duration>"],
  // A ratio of two masked durations ("sync <duration>, async <duration> (1.31×)") is a timing too.
  [/(<duration>[^\n]*<duration>[^\n]*?)\b\d+(\.\d+)?×/g, "$1<ratio>×"],
  // Figure element ids carry the kernel's pid (kit/report/plotly.ts figureHtml).
  [/openmle-fig-\d+-(?=\d)/g, "openmle-fig-<pid>-"],
  // Doubles printed at full precision (a figure's JSON payload): their last digits follow the summation
  // order of multi-threaded BLAS in the programs' metrics, so they compare at 10 significant digits.
  [/-?\b\d+\.\d{12,}(e[-+]?\d+)?\b/g, (m) => String(Number(Number(m).toPrecision(10)))],
  // Page-side random ids: plotly's SVG clip paths and gradients (randstr), uuids of tslab displays.
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>"],
];

/**
 * Columns of the kit's HTML tables (htmlTable) that hold measurements of the run itself, not results:
 * wall and CPU seconds, peak memory, times of day, throughput.
 */
export const VOLATILE_COLUMN = /^(wall|cpu|peak|elapsed|duration|started|ended|finished|created|time|at|nodes_per_min)([ _][a-z]+)?$|[ _](at|ms|s|mb)$/i;

/**
 * Figures of measured time (an axis or the title in seconds, e.g. sandbox wall time, async vs sync
 * timelines): their numbers are clock readings, so the comparison keeps their shape (traces, names,
 * categories, how many points) and masks the numbers and colours.
 */
export const TIME_FIGURE = /\bseconds\b|\(s\)|\bwall\b|\bms\b/i;
const PAYLOAD = /(<script>\(function\(\)\{var f=)([\s\S]*?)(,el=document\.getElementById\(")/g;
// Colours and hover text go too, and the traces' order: in notebook 08's async timeline a bar's colour is the
// step that consumed the group, its hover text says whether it was dropped, and bars come in start order; all
// depend on which sleeps finished first (the point of asynchronous rollout), not on a result.
const TIMING_KEYS = new Set(["color", "hovertext"]);
const numbersMasked = (v) =>
  typeof v === "number" ? "<t>" : Array.isArray(v) ? v.map(numbersMasked) : v && typeof v === "object"
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, TIMING_KEYS.has(k) ? "<c>" : numbersMasked(x)])) : v;
const byJson = (a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0);
const tracesMasked = (data) => (Array.isArray(data) ? data.map(numbersMasked).sort(byJson) : numbersMasked(data));
const axisTitles = (layout = {}) => Object.entries(layout).flatMap(([k, v]) => (/^(title|[xy]axis\d*)$/.test(k) ? [JSON.stringify(v?.title ?? v)] : []));

/** Mask the numbers of time figures (`TIME_FIGURE`) in an HTML output. */
export function maskTimeFigures(html) {
  return html.replace(PAYLOAD, (m, head, json, tail) => {
    let fig;
    try {
      fig = JSON.parse(json);
    } catch {
      return m;
    }
    if (!axisTitles(fig.layout).some((t) => TIME_FIGURE.test(t))) return m;
    return `${head}${JSON.stringify({ ...fig, data: tracesMasked(fig.data) })}${tail}`;
  });
}

/** In each `<table>`, replace the cells of volatile columns (by header name) with `<masked>`. */
export function maskTableColumns(html) {
  return html.replace(/<table[^>]*>[\s\S]*?<\/table>/g, (table) => {
    const head = /<thead>([\s\S]*?)<\/thead>/.exec(table)?.[1] ?? "";
    const names = [...head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => m[1].replace(/<[^>]+>/g, "").trim());
    const masked = new Set(names.flatMap((n, i) => (VOLATILE_COLUMN.test(n) ? [i] : [])));
    if (!masked.size) return table;
    return table.replace(/<tbody>([\s\S]*?)<\/tbody>/, (body) =>
      body.replace(/<tr>([\s\S]*?)<\/tr>/g, (row, cells) => {
        let i = -1;
        return `<tr>${cells.replace(/<td([^>]*)>([\s\S]*?)<\/td>/g, (cell, attrs) => (masked.has(++i) ? `<td${attrs}><masked></td>` : cell))}</tr>`;
      }),
    );
  });
}

/** Mask everything in `MASKS` in one string; `root` (the clone's folder) becomes `<root>`. */
export function normaliseText(text, root) {
  let s = root ? text.split(root).join("<root>") : text;
  for (const [re, mask] of MASKS) s = s.replace(re, mask);
  return s;
}

// A PNG `<img>` with a data URL (or, in notebooks committed before PNG snapshots, an `<svg>`) right after the
// div: the page-side script's own text spells `<div class="openmle-snapshot"><img src="'+url`.
const SNAPSHOT = /<div class="openmle-snapshot">(<img src="data:image\/png;base64,[^"]*"[^>]*>|<svg[\s\S]*?<\/svg>)<\/div>/g;
/** A figure's static snapshot (written by `addSnapshots`) is derived from its payload: compare the payload only. */
const withoutSnapshots = (html) => html.replace(SNAPSHOT, "<!--openmle-snapshot-->").replace(/<!--openmle-snapshot:[^>]*-->/g, "<!--openmle-snapshot-->");

const joined = (v) => (Array.isArray(v) ? v.join("") : (v ?? ""));

/**
 * The comparable text of a notebook: each cell's source and outputs, masked. Cell metadata (nbconvert's
 * execution timestamps), the kernel's version metadata and snapshot SVGs are left out.
 */
export function normaliseNotebook(nb, root) {
  const lines = [];
  nb.cells.forEach((c, i) => {
    lines.push(`## cell ${i} (${c.cell_type}${c.cell_type === "code" ? `, [${c.execution_count ?? " "}]` : ""})`);
    lines.push(joined(c.source));
    (c.outputs ?? []).forEach((o, j) => {
      lines.push(`-- output ${j}: ${o.output_type}${o.name ? ` ${o.name}` : ""}`);
      if (o.output_type === "stream") lines.push(joined(o.text));
      if (o.output_type === "error") lines.push(`${o.ename}: ${o.evalue}`);
      for (const [mime, v] of Object.entries(o.data ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
        lines.push(`[${mime}]`);
        const text = typeof v === "string" || Array.isArray(v) ? joined(v) : JSON.stringify(v);
        lines.push(mime === "text/html" ? maskTimeFigures(maskTableColumns(withoutSnapshots(text))) : text);
      }
    });
  });
  return normaliseText(lines.join("\n"), root)
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}

/** Long lines (a figure's JSON payload is one line) are cut in diffs so a failure stays short. */
const cut = (l, n = 160) => (l.length > n ? `${l.slice(0, n)}… (${l.length} chars)` : l);

/**
 * Compare a committed notebook with a fresh run of it, both normalised. Returns null when they agree, or a
 * unified diff of the first `maxLines` changed lines.
 */
export function compareNotebooks(committed, fresh, { name = "notebook", root, maxLines = 30 } = {}) {
  const a = normaliseNotebook(committed, root);
  const b = normaliseNotebook(fresh, root);
  if (a === b) return null;
  const patch = createTwoFilesPatch(`committed/${name}`, `fresh/${name}`, `${a}\n`, `${b}\n`, "", "", { context: 1 });
  // Each hunk names the cell it is in (the last "## cell" header at or before its first line).
  const lines = a.split("\n");
  const cellAt = (n) => lines.slice(0, n).findLast((l) => l.startsWith("## cell ")) ?? "## (top)";
  const body = patch
    .split("\n")
    .slice(1)
    .filter((l) => l !== "\\ No newline at end of file")
    .map((l) => l.replace(/^@@ -(\d+)(,\d+)? .*$/, (m, start) => `@@ ${cellAt(Number(start)).slice(3)}, line ${start}`));
  const shown = body.slice(0, maxLines).map((l) => cut(l));
  if (body.length > maxLines) shown.push(`… ${body.length - maxLines} more diff lines`);
  return shown.join("\n");
}

/** Scripts bigger than this in an HTML output are library bundles (plotly.js, ~4.6 MB), not content. */
export const BUNDLE_BYTES = 100_000;

/**
 * An executed notebook as committed: library bundles inlined in HTML outputs are dropped (figures then
 * show their static snapshot until a cell is re-run, as after a page reload; kit/report/plotly.ts),
 * nbconvert's per-cell execution timestamps are dropped (they change on every run and say nothing), and
 * figure ids lose the kernel's pid (`openmle-fig-<name>-N`), so unchanged figures diff as unchanged.
 * Returns the notebook and the bytes removed.
 */
export function prepareForCommit(nb, name) {
  let removed = 0;
  const tag = name.replace(/[^A-Za-z0-9-]/g, "");
  const cells = nb.cells.map((c) => {
    const { execution, ...metadata } = c.metadata ?? {};
    if (c.cell_type !== "code") return { ...c, metadata };
    const outputs = (c.outputs ?? []).map((o) => {
      if (!o.data?.["text/html"]) return o;
      let html = joined(o.data["text/html"]).replace(/<script[^>]*>([\s\S]*?)<\/script>/g, (m, body) => {
        if (body.length < BUNDLE_BYTES) return m;
        removed += m.length;
        return "";
      });
      html = html.replace(/openmle-fig-\d+-(?=\d)/g, `openmle-fig-${tag}-`); // idempotent: the tag is not digits-dash-digits
      return { ...o, data: { ...o.data, "text/html": splitLines(html) } };
    });
    return { ...c, metadata, outputs };
  });
  return { nb: { ...nb, cells }, removed };
}

/** nbformat's multi-line string form: one entry per line, each but the last keeping its "\n". */
export function splitLines(text) {
  const parts = text.split("\n");
  return parts.map((l, i) => (i < parts.length - 1 ? `${l}\n` : l)).filter((l) => l !== "");
}

const FIGURE = /<div id="([^"]+)" class="openmle-figure"[^>]*><!--openmle-snapshot:\1--><\/div><script>\(function\(\)\{var f=([\s\S]*?),el=document\.getElementById\("/g;

/** The figures of one HTML output that still lack a snapshot: their ids and plotly payloads. */
export function figuresIn(html) {
  return [...html.matchAll(FIGURE)].map((m) => ({ id: m[1], figure: JSON.parse(m[2]) }));
}

/** Put each figure's snapshot (by id: the `<img>` of `snapshotImg`) where its mark is, as the page-side script does. */
export function insertSnapshots(html, snaps) {
  let out = html;
  for (const [id, snap] of Object.entries(snaps)) {
    out = out.replace(`<!--openmle-snapshot:${id}-->`, () => `<div class="openmle-snapshot">${snap}</div>`);
  }
  return out;
}

/** A figure's snapshot as an image: a PNG data URL at its drawn size, with the figure's title as its text. */
export function snapshotImg({ url, width, height, title }) {
  const alt = String(title || "figure").replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return `<img src="${url}" width="${width}" height="${height}" alt="${alt}">`;
}

/** Each figure's snapshot back to its mark, so `figuresIn` finds it again (to redraw the snapshots). */
export function clearSnapshots(html) {
  return html.replace(
    new RegExp(`(<div id="([^"]+)" class="openmle-figure"[^>]*>)${SNAPSHOT.source}`, "g"),
    (m, open, id) => `${open}<!--openmle-snapshot:${id}-->`,
  );
}

/**
 * Rebuilt from sources, a notebook keeps the outputs of each code cell whose source is unchanged (matched in
 * order, so a moved cell keeps its outputs too); new or edited cells start empty. The kernel's
 * language_info is kept.
 */
export function carryOutputs(previous, rebuilt) {
  if (!previous) return { nb: rebuilt, kept: 0 };
  const pool = new Map();
  for (const c of previous.cells) {
    if (c.cell_type !== "code") continue;
    const key = joined(c.source);
    pool.set(key, [...(pool.get(key) ?? []), c]);
  }
  let kept = 0;
  const cells = rebuilt.cells.map((c) => {
    if (c.cell_type !== "code") return c;
    const old = pool.get(joined(c.source))?.shift();
    if (!old) return c;
    if (old.outputs?.length) kept++;
    return { ...c, execution_count: old.execution_count ?? null, outputs: old.outputs ?? [] };
  });
  const metadata = { ...rebuilt.metadata, language_info: previous.metadata?.language_info ?? rebuilt.metadata.language_info };
  return { nb: { ...rebuilt, cells, metadata }, kept };
}
