// Terminal formatting shared by the CLI's human output (`--json` prints values unformatted).

/** Widest a table cell gets before it is cut; the cut is marked so nobody mistakes it for the value. */
export const MAX_CELL = 60;
const CUT = "…";

/** A number for people: up to 6 significant digits, no trailing noise; null/NaN as "—". */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  if (Number.isInteger(v)) return String(v);
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e9)) return v.toExponential(3);
  return String(Number(v.toPrecision(6)));
}

/** One cell as text on one line: objects as compact JSON, newlines shown as ⏎. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return formatNumber(v);
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return s.replace(/\r?\n/g, "⏎");
}

/** Cut a cell to `max` characters, marking the cut with "…". */
export function truncateCell(s: string, max = MAX_CELL): string {
  return s.length <= max ? s : `${s.slice(0, max - CUT.length)}${CUT}`;
}

/** A plain-text table for terminal output; long cells are cut with a marker ("--json" gives everything). */
export function formatTable(rows: readonly Record<string, unknown>[]): string {
  const cols = Object.keys(rows[0] ?? {});
  const cells = rows.map((r) => cols.map((c) => truncateCell(cellText(r[c]))));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (vals: readonly string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(cols), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
