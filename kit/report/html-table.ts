import { cellHtml, escapeHtml } from "./format.js";

/**
 * A small HTML table of plain rows, for notebooks and reports. Cells are formatted for people
 * (`formatValue`: sensible precision, lists and objects as text); a missing value or NaN shows "—"
 * with the column's reason (`reasons`) as its hover title. Long text is cut at 200 characters.
 */
export function htmlTable(
  rows: readonly Record<string, unknown>[],
  opts: { maxRows?: number; caption?: string; reasons?: Record<string, string> } = {},
): string {
  const cols = Object.keys(rows[0] ?? {});
  const shown = rows.slice(0, opts.maxRows ?? 50);
  const td = (v: unknown, c: string) => {
    const cut = typeof v === "string" && v.length > 200 ? `${v.slice(0, 200)}…` : v;
    return `<td>${cellHtml(cut, opts.reasons?.[c])}</td>`;
  };
  return (
    `<table class="openmle-table">${opts.caption ? `<caption>${escapeHtml(opts.caption)}</caption>` : ""}` +
    `<thead><tr>${cols.map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr></thead><tbody>` +
    shown.map((r) => `<tr>${cols.map((c) => td(r[c], c)).join("")}</tr>`).join("") +
    `</tbody></table>` +
    (rows.length > shown.length ? `<p>${rows.length - shown.length} more rows</p>` : "")
  );
}
