/** Formatting for people: numbers to sensible precision, no raw JSON, no NaN. */
import { showBidi } from "../util/index.js";

/** A missing value: shown as "—", with the reason in its hover title. */
export const DASH = "—";

/**
 * A number to sensible precision: integers as they are; |x| >= 1000 with thousands separators and
 * no decimals; otherwise `digits` significant digits (default 4) without trailing zeros; non-finite → null.
 */
export function formatNumber(x: number, digits = 4): string | null {
  if (!Number.isFinite(x)) return null;
  if (Number.isInteger(x)) return Math.abs(x) >= 10_000 ? x.toLocaleString("en-US") : String(x);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString("en-US");
  const s = x.toPrecision(digits);
  return s.includes("e") ? s : s.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
}

/** A share 0..1 as a percentage ("83%", "8.3%"). */
export function formatPercent(x: number | null | undefined): string | null {
  if (x === null || x === undefined || !Number.isFinite(x)) return null;
  const p = 100 * x;
  return `${p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(1)}%`;
}

/** Seconds as "42 s", "3.5 min", "1.2 h". */
export function formatSeconds(s: number | null | undefined): string | null {
  if (s === null || s === undefined || !Number.isFinite(s)) return null;
  if (s < 120) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  if (s < 7200) return `${(s / 60).toFixed(1)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** Any cell value as text: arrays as comma lists, objects as "key value" pairs, dates ISO, null/NaN → null. */
export function formatValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (v instanceof Date) return v.toISOString().replace("T", " ").slice(0, 19);
  if (Array.isArray(v)) return v.length ? v.map((x) => formatValue(x) ?? DASH).join(", ") : null;
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.length ? entries.map(([k, x]) => `${k} ${formatValue(x) ?? DASH}`).join(", ") : null;
  }
  return String(v);
}

/** Text as HTML; bidi controls (U+202E, …) as visible `\u202e`: a page reorders on them as a terminal does. */
export const escapeHtml = (s: string) =>
  showBidi(s).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/**
 * A JSON.stringify replacer for data a page shows (figures, the node panel, the dashboard's state): every string with
 * its bidi controls as visible escapes, as `escapeHtml` does for HTML text (the page sets it with textContent).
 */
export const showBidiInJson = (_key: string, value: unknown): unknown =>
  typeof value === "string" ? showBidi(value) : value;

/** One value as HTML: the formatted text, or "—" with `reason` as its hover title. */
export function cellHtml(v: unknown, reason = "no value recorded"): string {
  const s = formatValue(v);
  return s === null ? `<span class="openmle-missing" title="${escapeHtml(reason)}">${DASH}</span>` : escapeHtml(s);
}
