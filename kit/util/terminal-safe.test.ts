import { describe, expect, it } from "vitest";
import { printable, printableLine, showBidi } from "./terminal-safe.js";

// [case, input, printable (multi-line), printableLine (single-line)], escapes written out by hand.
const CASES: [string, string, string, string][] = [
  ["plain text is unchanged", "score 0.5 (ok)", "score 0.5 (ok)", "score 0.5 (ok)"],
  ["non-ASCII text is unchanged", "naïve ⏎ 日本 é", "naïve ⏎ 日本 é", "naïve ⏎ 日本 é"],
  ["a backslash stays", "C:\\x1b \\n", "C:\\x1b \\n", "C:\\x1b \\n"],
  ["ESC of a colour (CSI)", "\x1b[31mRED\x1b[0m", "\\x1b[31mRED\\x1b[0m", "\\x1b[31mRED\\x1b[0m"],
  ["an OSC window title ended by BEL", "\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07", "\\x1b]0;pwned\\x07"],
  ["NUL, backspace, vertical tab, form feed", "a\x00b\x08c\x0bd\x0c", "a\\x00b\\x08c\\x0bd\\x0c", "a\\x00b\\x08c\\x0bd\\x0c"],
  ["unit separator (U+001F), DEL (U+007F)", "\x1f\x7f", "\\x1f\\x7f", "\\x1f\\x7f"],
  ["C1: CSI U+009B, OSC U+009D, U+0080, U+009F", "\x9b31m\x9d\x80\x9f", "\\x9b31m\\x9d\\x80\\x9f", "\\x9b31m\\x9d\\x80\\x9f"],
  ["U+00A0 (no-break space) is past C1: unchanged", "a\u00a0b", "a\u00a0b", "a\u00a0b"],
  ["a line break: kept in text, escaped in a field", "x\nFinal Validation Score: 1.0", "x\nFinal Validation Score: 1.0", "x\\nFinal Validation Score: 1.0"],
  ["a tab: kept in text, escaped in a field", "a\tb", "a\tb", "a\\tb"],
  ["CRLF: a line break in text, both escaped in a field", "a\r\nb", "a\nb", "a\\r\\nb"],
  ["a lone CR (overwrites a line) is escaped in both", "ok\rFinal Validation Score: 1.0", "ok\\rFinal Validation Score: 1.0", "ok\\rFinal Validation Score: 1.0"],
  ["CR CR LF: the first CR escaped, CRLF a break", "a\r\r\nb", "a\\r\nb", "a\\r\\r\\nb"],
  ["the issue's artifact name", "evil\x1b[31mRED\x1b]0;pwned\x07\nFinal Validation Score: 1.0", "evil\\x1b[31mRED\\x1b]0;pwned\\x07\nFinal Validation Score: 1.0", "evil\\x1b[31mRED\\x1b]0;pwned\\x07\\nFinal Validation Score: 1.0"],
  ["empty", "", "", ""],
  // Bidi controls (issue 59.7): shown, never obeyed, in text and in a field.
  ["RLO (U+202E) in a file name", "report\u202Efdp.exe", "report\\u202efdp.exe", "report\\u202efdp.exe"],
  ["LRE…PDF (U+202A–U+202C), LRO (U+202D)", "\u202a\u202b\u202c\u202d", "\\u202a\\u202b\\u202c\\u202d", "\\u202a\\u202b\\u202c\\u202d"],
  ["isolates (U+2066–U+2069)", "a\u2066b\u2067c\u2068d\u2069", "a\\u2066b\\u2067c\\u2068d\\u2069", "a\\u2066b\\u2067c\\u2068d\\u2069"],
  ["LRM, RLM, ALM (U+200E, U+200F, U+061C)", "\u200e\u200f\u061c", "\\u200e\\u200f\\u061c", "\\u200e\\u200f\\u061c"],
  ["line and paragraph separators (U+2028, U+2029)", "a\u2028b\u2029", "a\\u2028b\\u2029", "a\\u2028b\\u2029"],
  ["Arabic and Hebrew letters (right-to-left, not controls) are unchanged", "שלום عربي", "שלום عربي", "שלום عربي"],
  ["zero-width joiner (U+200D) and U+200B are not bidi controls: unchanged", "a\u200db\u200b", "a\u200db\u200b", "a\u200db\u200b"],
];

const BIDI = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("printable and printableLine", () => {
  it.each(CASES)("%s", (_, input, text, line) => {
    expect(printable(input)).toBe(text);
    expect(printableLine(input)).toBe(line);
  });

  it("leaves no control character but \\n and \\t in text, and none at all in a field", () => {
    const all = Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).join("");
    expect(printable(all).replace(/[\n\t]/g, "")).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(printableLine(all)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    // 160 characters: 95 shown as they are, \n \r \t as two characters, the other 62 controls as four (\xHH).
    expect(printableLine(all).length).toBe(95 + 3 * 2 + 62 * 4);
  });

  it("leaves no bidi control in text or a field, of everything from U+0600 to U+206F", () => {
    const all = Array.from({ length: 0x2070 - 0x600 }, (_, i) => String.fromCharCode(0x600 + i)).join("");
    expect(printable(all)).not.toMatch(BIDI);
    expect(printableLine(all)).not.toMatch(BIDI);
    // 14 bidi controls and separators, each shown as six characters (\u202e).
    expect(printableLine(all).length).toBe(all.length + 14 * 5);
  });

  it("showBidi escapes only the bidi controls (for HTML and JSON, which escape the rest themselves)", () => {
    expect(showBidi("a\u202Eb\n\x1b<")).toBe("a\\u202eb\n\x1b<");
  });
});
