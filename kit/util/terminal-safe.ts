// Text that a program or a task package wrote, made safe to print on a terminal. The CLI applies it to
// what it prints (the store keeps the raw value; `--json` escapes control characters by itself).

/**
 * Unicode's bidirectional controls and line separators: U+061C, U+200E/U+200F, U+2028/U+2029, U+202A–U+202E,
 * U+2066–U+2069. A terminal (and a browser) does not show them but reorders or breaks the text around them: an
 * artifact named "report\u202Efdp.exe" shows as "reportexe.pdf" (Trojan Source, CVE-2021-42574).
 */
export const BIDI = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069";

/** C0 controls, DEL, C1 controls and the bidi controls: the characters a terminal may act on instead of showing. */
const CONTROL = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI}]`, "g");

/** Multi-line text: the same, plus CRLF, which reads as one line break. */
const CONTROL_OR_CRLF = new RegExp(`\\r\\n|${CONTROL.source}`, "g");

/** The bidi controls alone (`showBidi`). */
const BIDI_ONLY = new RegExp(`[${BIDI}]`, "g");

const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** One control as a visible escape: \n, \r, \t, \xHH below U+0100 (ESC → \x1b, CSI → \x9b), else \uHHHH (\u202e). */
const visible = (c: string): string => {
  const code = c.charCodeAt(0);
  return (
    SHORT[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`)
  );
};

/**
 * Multi-line text (a traceback, an output tail, a description) safe to print: every C0 control
 * (U+0000–U+001F), DEL (U+007F), C1 control (U+0080–U+009F) and bidi control (see BIDI) is written as a
 * visible escape (`\x1b`, `\x07`, `\r`, `\u202e`, …), except the line break \n and the tab \t, which stay;
 * CRLF reads as \n. So text a program wrote can neither drive the terminal (colours, cursor moves, an OSC
 * window title, a bell), overwrite a line with a lone \r, nor reorder what is shown. Everything else,
 * backslashes included, is unchanged: a literal `\x1b` (four characters) and an escaped ESC look alike,
 * which is fine for reading.
 */
export function printable(text: string): string {
  return text.replace(CONTROL_OR_CRLF, (c) => (c === "\r\n" ? "\n" : c === "\n" || c === "\t" ? c : visible(c)));
}

/**
 * A single-line field (a name, an id, a message shown after a label) safe to print: as `printable`,
 * and \n, \r and \t are escaped too (`\n`), so a field cannot start a line that looks like the kit's
 * own output (an artifact named "x\nFinal Validation Score: 1.0").
 */
export function printableLine(text: string): string {
  return text.replace(CONTROL, visible);
}

/**
 * Only the bidi controls as visible escapes (`\u202e`), for text whose other characters are escaped
 * elsewhere: HTML (a page reorders on U+202E as a terminal does, and HTML escaping leaves it) and JSON.
 */
export function showBidi(text: string): string {
  return text.replace(BIDI_ONLY, visible);
}
