import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../eval/index.js";
import { importParquet, openWorkspace, TABLES, type Workspace } from "../store/index.js";
import { ReportError } from "./errors.js";

/** Folder of the recorded example runs shipped with the kit (data/recorded-runs/<name>, see its PROVENANCE.md). */
export const recordedRunsDir = (name = "cars") => join(packageRoot(), "data", "recorded-runs", name);

/**
 * The recorded example runs (`evolve` runs made by the kit, exported as one Parquet file per table) imported
 * into a fresh workspace under the system temp folder, for analysis in seconds. The caller closes it.
 */
export async function openRecordedRuns(name = "cars"): Promise<Workspace> {
  const dir = recordedRunsDir(name);
  if (!existsSync(dir))
    throw new ReportError(
      `no recorded runs "${name}" under ${join(packageRoot(), "data", "recorded-runs")}: known ` +
        `${existsSync(join(dir, "..")) ? readdirSync(join(dir, "..")).join(", ") : "none"}.`,
    );
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), `openmle-recorded-${name}-`)), "ws"));
  for (const t of TABLES)
    if (existsSync(join(dir, `${t}.parquet`))) await importParquet(ws, join(dir, `${t}.parquet`), t);
  return ws;
}
