import { TABLES, type TableName } from "./schema.js";
import type { Workspace } from "./workspace.js";

/** Rows per table of the current schema, in schema order (`openmle workspace info`). */
export async function tableCounts(ws: Workspace): Promise<Record<TableName, number>> {
  const counts = {} as Record<TableName, number>;
  for (const t of TABLES) counts[t] = (await ws.query<{ n: number }>(`SELECT count(*) AS n FROM ${t}`))[0]!.n;
  return counts;
}
