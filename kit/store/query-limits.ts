// The time and memory limits of a read-only handle's statements (OpenOptions.limits, issue 59.7): the
// statement is interrupted by a timer, DuckDB enforces its memory_limit, and the rows a query returns are
// counted against the same limit as they are read, a chunk at a time, since DuckDB's limit ends where
// its result is handed to JavaScript (3 million 100-character rows took 860 MiB under a 64 MiB limit).
import type { DuckDBConnection, DuckDBPreparedStatement } from "@duckdb/node-api";
import { QueryLimitError } from "./errors.js";

/** The limits themselves; each is off when left out. */
export interface QueryLimits {
  /** Interrupt a statement running longer than this many milliseconds. */
  readonly timeoutMs?: number;
  /** DuckDB's memory_limit in MiB, and the most the rows of one result may take in JavaScript (about). */
  readonly memoryMb?: number;
}

/** DuckDB's memory_limit setting for a handle opened with `limits` (set at open: a confined handle locks it). */
export const memorySetting = (limits: QueryLimits | undefined): Record<string, string> =>
  limits?.memoryMb === undefined ? {} : { memory_limit: `${limits.memoryMb}MiB` };

/**
 * About how many bytes a plain JS value takes: strings by their length, numbers and the like 8, arrays and
 * objects their parts plus a header. An estimate for the result cap, not an accounting of V8's heap.
 */
export function approxBytes(v: unknown): number {
  if (typeof v === "string") return 16 + v.length;
  if (v === null || typeof v !== "object") return 8;
  if (v instanceof Uint8Array) return 16 + v.byteLength;
  if (v instanceof Date) return 32;
  let n = 16;
  for (const x of Array.isArray(v) ? v : Object.values(v)) n += 8 + approxBytes(x);
  return n;
}

/**
 * Run `fn` with a timer that interrupts the connection's running statement after `timeoutMs`; a statement
 * it stopped throws QueryLimitError("time"). Without a limit, `fn` as it is.
 */
export async function withTimeLimit<T>(
  conn: DuckDBConnection,
  dir: string,
  timeoutMs: number | undefined,
  fn: (expired: () => boolean) => Promise<T>,
): Promise<T> {
  if (timeoutMs === undefined) return fn(() => false);
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    conn.interrupt();
  }, timeoutMs);
  try {
    return await fn(() => fired);
  } catch (e) {
    if (fired && /^INTERRUPT Error/.test(e instanceof Error ? e.message : ""))
      throw new QueryLimitError(dir, "time", timeoutMs, "interrupted", { cause: e });
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The rows of a prepared SELECT as JS objects. With a memory limit they are streamed a chunk (2,048 rows) at a
 * time and counted as they come (`approxBytes`): past the limit, reading stops with QueryLimitError("result");
 * DuckDB's own "Out of Memory Error" becomes QueryLimitError("memory"). `expired` ends the read between chunks.
 */
export async function limitedRows(
  prepared: DuckDBPreparedStatement,
  dir: string,
  limits: QueryLimits,
  expired: () => boolean,
): Promise<Record<string, unknown>[]> {
  const mb = limits.memoryMb;
  try {
    if (mb === undefined) return (await prepared.runAndReadAll()).getRowObjectsJS();
    const rows: Record<string, unknown>[] = [];
    let bytes = 0;
    for await (const chunk of (await prepared.stream()).yieldRowObjectJs()) {
      for (const row of chunk) bytes += approxBytes(row);
      rows.push(...chunk);
      if (bytes > mb * 2 ** 20)
        throw new QueryLimitError(dir, "result", mb, `${rows.length.toLocaleString("en-US")} rows read so far`);
      if (expired()) throw new Error("INTERRUPT Error: the time limit passed between chunks");
    }
    return rows;
  } catch (e) {
    const msg = e instanceof Error ? e.message : "";
    if (mb !== undefined && /^Out of Memory Error/.test(msg))
      throw new QueryLimitError(dir, "memory", mb, msg.split("\n")[0]!, { cause: e });
    throw e;
  }
}
