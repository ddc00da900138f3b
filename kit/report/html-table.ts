/** A small HTML table of plain rows, for notebooks and reports. */
export function htmlTable(rows: readonly Record<string, unknown>[], opts: { maxRows?: number; caption?: string } = {}): string {
  const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const cell = (v: unknown) =>
    v === null || v === undefined ? "" : typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toPrecision(5)) : typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : String(v instanceof Date ? v.toISOString() : v);
  const cols = Object.keys(rows[0] ?? {});
  const shown = rows.slice(0, opts.maxRows ?? 50);
  return (
    `<table class="openmle-table">${opts.caption ? `<caption>${esc(opts.caption)}</caption>` : ""}` +
    `<thead><tr>${cols.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>` +
    shown.map((r) => `<tr>${cols.map((c) => `<td>${esc(cell(r[c]).slice(0, 200))}</td>`).join("")}</tr>`).join("") +
    `</tbody></table>` +
    (rows.length > shown.length ? `<p>${rows.length - shown.length} more rows</p>` : "")
  );
}
