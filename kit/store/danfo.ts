import type { Params } from "./values.js";
import type { Workspace } from "./workspace.js";

/**
 * A danfojs DataFrame of any query, for notebooks. danfojs-node pulls in TensorFlow.js,
 * so it is imported only when first asked for.
 */
export async function toDanfo(ws: Workspace, sql: string, params?: Params) {
  const dfd = await import("danfojs-node");
  const { names, columns } = await ws.queryColumns(sql, params);
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
