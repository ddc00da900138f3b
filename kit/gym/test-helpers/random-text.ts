/** Seeded random text for property tests: quotes, backslashes, newlines, braces, payloads and unicode. */

/** mulberry32: a small seeded PRNG giving floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "'''", '"""', "'", '"', "\\", "\\\\", "\\'''", "\n", "\r\n", "\t", "{}", "{0}", "{{", "}}", "%s", "${x}",
  "r'''", "''' + str(1) + r'''", '""" + str(1) + r"""', "\\u0041", "\\x00", "\u2028", "\u2029", "\u0085",
  "\ufeff", "é", "ß", "日本", "😀", "\u{10ffff}", "\x7f", "\x01", "\x1b[31m", " ", "#", ";", ",", "</script>",
  "__import__('os').system('id')", "\\N{BULLET}",
];

export interface TextOptions {
  /** Allow U+0000 (default false: file names and command lines cannot hold it). */
  readonly nul?: boolean;
  /**
   * A CSV column name as pandas 1.5 round-trips it (default false): no carriage return without a newline
   * (written unquoted, it splits the header) and no leading U+FEFF (read_csv strips it as a byte-order mark).
   */
  readonly csvHeader?: boolean;
  /** Characters that must not appear (e.g. "/" for file names). */
  readonly exclude?: string;
}

/** A random code point outside the surrogates (and NUL unless allowed). */
function codePoint(r: () => number, nul: boolean): string {
  const pick = r();
  const cp =
    pick < 0.5
      ? 0x20 + Math.floor(r() * 0x5f) // printable ASCII
      : pick < 0.6
        ? Math.floor(r() * 0x20) // control characters
        : pick < 0.9
          ? 0xa0 + Math.floor(r() * (0xd800 - 0xa0)) // BMP below the surrogates
          : 0x10000 + Math.floor(r() * 0xfffff); // astral planes
  return cp === 0 && !nul ? "\x01" : String.fromCodePoint(cp);
}

/**
 * A random string of 1–12 pieces (the PIECES above, single code points, runs of ASCII) around a
 * `nonce` (so "this string occurs in file X" is a meaningful question, however short the pieces are).
 */
export function randomText(r: () => number, nonce: string, o: TextOptions = {}): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * 12);
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.5) parts.push(PIECES[Math.floor(r() * PIECES.length)]!);
    else if (k < 0.8) parts.push(codePoint(r, !!o.nul));
    else parts.push(Math.floor(r() * 1e9).toString(36));
  }
  parts.splice(Math.floor(r() * (parts.length + 1)), 0, nonce);
  let s = parts.join("");
  if (!o.nul) s = s.replaceAll("\0", "\x01");
  if (o.csvHeader) s = s.replace(/\r(?!\n)/g, "\r\n").replace(/^\ufeff+/, "");
  for (const c of o.exclude ?? "") s = s.replaceAll(c, "_");
  return s;
}
