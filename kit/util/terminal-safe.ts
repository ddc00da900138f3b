// Text that a program or a task package wrote, made safe to print on a terminal. The CLI applies it to
// what it prints (the store keeps the raw value; `--json` escapes control characters by itself).

/** C0 controls, DEL and C1 controls: the characters a terminal may act on instead of showing. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Multi-line text: the same, plus CRLF, which reads as one line break. */
const CONTROL_OR_CRLF = /\r\n|[\u0000-\u001f\u007f-\u009f]/g;

const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** One control character as a visible escape: \n, \r, \t, else \xHH (ESC → \x1b, CSI U+009B → \x9b). */
const visible = (c: string): string => SHORT[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;

/**
 * Multi-line text (a traceback, an output tail, a description) safe to print: every C0 control
 * (U+0000–U+001F), DEL (U+007F) and C1 control (U+0080–U+009F) is written as a visible escape (`\x1b`,
 * `\x07`, `\r`, …), except the line break \n and the tab \t, which stay; CRLF reads as \n. So text a
 * program wrote can neither drive the terminal (colours, cursor moves, an OSC window title, a bell)
 * nor overwrite a line with a lone \r. Everything else, backslashes included, is unchanged: a
 * literal `\x1b` (four characters) and an escaped ESC look alike, which is fine for reading.
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
