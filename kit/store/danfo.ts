import type { Params } from "./values.js";
import type { Workspace } from "./workspace.js";

/**
 * A danfojs DataFrame of any query, for notebooks. danfojs-node pulls in TensorFlow.js,
 * so it is imported only when first asked for.
 */
export async function toDanfo(ws: Workspace, sql: string, params?: Params) {
  const dfd = await import("danfojs-node");
  const { names, columns } = await ws.queryColumns(sql, params);
  return frameOf(dfd, names, columns);
}

/** A danfojs DataFrame of plain rows (the keys of the first row are the columns), for notebooks. */
export async function rowsToDanfo(rows: readonly object[]) {
  const dfd = await import("danfojs-node");
  const names = Object.keys(rows[0] ?? {});
  return frameOf(
    dfd,
    names,
    names.map((k) => rows.map((r) => (r as Record<string, unknown>)[k])),
  );
}

function frameOf(dfd: typeof import("danfojs-node"), names: readonly string[], columns: readonly unknown[][]) {
  const data: Record<string, unknown[]> = {};
  names.forEach((name, i) => {
    data[name] = columns[i]!.map((v) =>
      typeof v === "bigint"
        ? Number(v)
        : v instanceof Date
          ? v.toISOString()
          : Array.isArray(v)
            ? JSON.stringify(v)
            : v,
    );
  });
  return new dfd.DataFrame(names.length ? data : {});
}
