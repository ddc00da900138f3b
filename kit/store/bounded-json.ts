// JSON the kit did not write itself (a workspace or Parquet cell, a file, a message through Redis) is bounded
// before anything walks it: V8's JSON.parse nests without limit, but every recursive walk after it
// (canonicalJson, JSON.stringify, String() of an array) overflows the stack a few thousand levels down and
// leaves a stack trace. The store imports nothing of the kit, so this is the kit's one copy; every layer uses it.

/**
 * The deepest nesting of arrays and objects the kit reads: 64. What the kit writes nests at most about 8 levels
 * (a grammar-params row is 4: decision → feature → option → logit; a stored config about 6), so 64 leaves room for
 * hand-written JSON while staying two orders of magnitude below where a recursive walk overflows (3,000–10,000
 * levels, fewer deep in a call stack).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The most bytes of one JSON value the kit reads from a workspace, a Parquet file or a params file: 16 MiB. The
 * largest it writes are an LLM call's messages and a task spec (tens of KiB; grammar params about 40 KiB).
 */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

/**
 * JSON over a bound: `limit` says which (`depth`, `bytes`); the message names the input and the limit in one
 * line. The store imports nothing of the kit, so this mirrors kit/util's KitError (`userFacing`, its own name).
 */
export class JsonBoundsError extends Error {
  readonly userFacing = true;
  constructor(
    message: string,
    readonly input: string,
    readonly limit: "depth" | "bytes",
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface JsonBounds {
  /** Deepest nesting of arrays and objects accepted (default MAX_JSON_DEPTH). */
  readonly maxDepth?: number;
  /** Most UTF-8 bytes of the text accepted (default MAX_JSON_BYTES). */
  readonly maxBytes?: number;
}

/** The error for `input` nested deeper than `maxDepth`. */
export function tooDeep(input: string, maxDepth = MAX_JSON_DEPTH): JsonBoundsError {
  return new JsonBoundsError(
    `${input} nests JSON more than ${maxDepth} levels deep (the kit's limit): the kit never writes such JSON, ` +
      `so it was refused unread`,
    input,
    "depth",
  );
}

/** The error for `input` of `bytes` bytes, over `maxBytes`. */
export function tooLarge(input: string, bytes: number, maxBytes = MAX_JSON_BYTES): JsonBoundsError {
  return new JsonBoundsError(
    `${input} is ${bytes} bytes of JSON, past the kit's limit of ${maxBytes} bytes: refused unread`,
    input,
    "bytes",
  );
}

/** UTF-8 bytes of `text`, stopping early once they are surely over `cap` (a UTF-16 unit is at least one byte). */
export function utf8BytesOver(text: string, cap: number): number | null {
  if (text.length > cap) return text.length;
  if (text.length * 3 <= cap) return null;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > cap ? bytes : null;
}

/**
 * The deepest nesting of arrays and objects in JSON text, counted without parsing (brackets inside strings do not
 * count); stops counting once past `stopAfter`. Linear, no allocation: safe on text of any size or shape.
 */
export function jsonTextDepth(text: string, stopAfter = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max && (max = depth) > stopAfter) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** Throws JsonBoundsError when `text` is over `bounds`; `input` names it in the message. */
export function checkJsonText(text: string, input: string, bounds: JsonBounds = {}): void {
  const maxBytes = bounds.maxBytes ?? MAX_JSON_BYTES;
  const maxDepth = bounds.maxDepth ?? MAX_JSON_DEPTH;
  const bytes = utf8BytesOver(text, maxBytes);
  if (bytes !== null) throw tooLarge(input, bytes, maxBytes);
  if (jsonTextDepth(text, maxDepth) > maxDepth) throw tooDeep(input, maxDepth);
}

/** JSON.parse of `text` once it is within `bounds` (JsonBoundsError naming `input` otherwise). */
export function parseBoundedJson(text: string, input: string, bounds: JsonBounds = {}): unknown {
  checkJsonText(text, input, bounds);
  return JSON.parse(text) as unknown;
}

/**
 * Throws JsonBoundsError when a parsed value nests arrays and objects deeper than `maxDepth` (checked
 * iteratively, so any depth is safe to check); for values that arrived parsed (a BullMQ job's data).
 */
export function checkJsonDepth(value: unknown, input: string, maxDepth = MAX_JSON_DEPTH): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d + 1 > maxDepth) throw tooDeep(input, maxDepth);
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) stack.push([child, d + 1]);
  }
}
