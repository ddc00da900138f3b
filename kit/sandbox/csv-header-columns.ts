/** pandas' C parser reads a file 256 KiB at a time (tokenize_chunksize); two of its rules depend on where. */
export const PANDAS_CHUNK_BYTES = 262_144;

const NL = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const isBlank = (c: number | undefined) => c === 0x20 || c === 0x09;

/**
 * Columns of a CSV file's header record, counted the way pandas' C parser (`pd.read_csv` with its
 * defaults, as the metric harness reads a submission) tokenizes it, so a cap on this count is a cap
 * on what the scorer builds. `bytes` is the start of the file; `atEof` says whether it is all of it.
 *
 * The rule (pandas' tokenizer states; delimiter `,`, quote `"`, doublequote, skip_blank_lines):
 * 1. Until a line has ended, a UTF-8 BOM at the start of a 256 KiB read chunk is dropped (at byte 0,
 *    and also at 262,144, ... inside a long first line).
 * 2. Lines of only spaces and tabs before the header are skipped; a `,` right after such a line that
 *    ends in a lone `\r` is dropped with it. A line that starts with spaces or tabs and then has more
 *    is read again from after the last `\n` (or the current chunk's start) as a record, so a lone `\r`
 *    blank line just before it becomes a one-field header.
 * 3. A field is quoted only when `"` is its first character; elsewhere in an unquoted field `"` is a
 *    literal character (`id",c` is two fields).
 * 4. Inside a quoted field `""` is an escaped quote and `,`, `\n`, `\r` are literal (the record goes on
 *    across lines); a lone `"` closes it, and what follows up to the next `,` joins the same field.
 * 5. Outside quotes `,` ends a field; `\n` or `\r` ends the record.
 * Returns the field count (0 when no record starts), or null when the header record does not end
 * within `bytes` and `atEof` is false (the caller decides how long a header may be).
 */
export function csvHeaderColumns(bytes: Uint8Array, atEof: boolean): number | null {
  type State = "record" | "blankLine" | "afterCr" | "field" | "unquoted" | "quoted" | "quoteInQuoted";
  let state: State = "record";
  let fields = 1;
  let lineEnded = false;
  let chunkStart = 0;
  for (let i = 0; i < bytes.length; i++) {
    // 1. A new chunk; a BOM at its start is skipped while no line has ended.
    if (i % PANDAS_CHUNK_BYTES === 0) {
      chunkStart = i;
      if (!lineEnded && bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) {
        chunkStart = i + 3;
        i += 2;
        continue;
      }
    }
    const c = bytes[i];
    // 2. Blank lines before the header.
    if (state === "afterCr") {
      state = "record";
      if (c === NL || c === COMMA) continue;
    }
    if (state === "record" || state === "blankLine") {
      if (c === NL || c === CR) {
        lineEnded = true;
        state = c === CR ? "afterCr" : "record";
        continue;
      }
      if (isBlank(c)) {
        state = "blankLine";
        continue;
      }
      if (state === "blankLine") {
        let q = i;
        while (q > chunkStart && bytes[q] !== NL) q--;
        if (bytes[q] === NL) q++;
        state = "field";
        i = q - 1;
        continue;
      }
      state = "field";
    }
    // 3.–5. The header record.
    if (state === "quoted") {
      if (c === QUOTE) state = "quoteInQuoted";
    } else if (c === COMMA) {
      fields++;
      state = "field";
    } else if (c === NL || c === CR) {
      return fields;
    } else if (state === "field" && c === QUOTE) {
      state = "quoted";
    } else if (state === "quoteInQuoted" && c === QUOTE) {
      state = "quoted"; // "" is an escaped quote
    } else {
      state = "unquoted";
    }
  }
  if (!atEof) return null;
  return state === "record" || state === "blankLine" || state === "afterCr" ? 0 : fields;
}
