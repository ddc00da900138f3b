import { existsSync, lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../eval/index.js";
import { importParquet, openWorkspace, TABLES, type Workspace } from "../store/index.js";
import { pidAlive } from "../util/kill-tree.js";
import { ReportError } from "./errors.js";

/** Folder of the recorded example runs shipped with the kit (data/recorded-runs/<name>, see its PROVENANCE.md). */
export const recordedRunsDir = (name = "cars") => join(packageRoot(), "data", "recorded-runs", name);

/** A recording's name: one plain folder name (no separator, no `..`, no leading dot). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Temporary workspaces: `openmle-recorded-<pid>-<name>-XXXXXX` under the system temp folder. */
const TEMP_PREFIX = "openmle-recorded-";
const TEMP_NAME = /^openmle-recorded-(\d+)-/;

/** Temporary folders of this process still open, removed at exit if their workspace was never closed. */
const open = new Set<string>();
let exitHook = false;

/**
 * The recording's folder, confined to data/recorded-runs: `name` must be a plain name of a real folder there
 * (a `../` name or a link leading out is refused with ReportError, one line), holding regular Parquet files.
 */
export function recordedRunsFolder(name: string): string {
  const root = join(packageRoot(), "data", "recorded-runs");
  const known = () =>
    existsSync(root)
      ? readdirSync(root)
          .filter((n) => NAME.test(n))
          .join(", ")
      : "none";
  if (!NAME.test(name) || name.includes(".."))
    throw new ReportError(
      `recorded runs ${JSON.stringify(name)}: pass the plain name of a folder under ${root} (known: ${known()}).`,
    );
  const dir = join(root, name);
  if (!existsSync(dir)) throw new ReportError(`no recorded runs "${name}" under ${root}: known ${known()}.`);
  if (
    lstatSync(dir).isSymbolicLink() ||
    !statSync(dir).isDirectory() ||
    realpathSync(dir) !== join(realpathSync(root), name)
  )
    throw new ReportError(`recorded runs "${name}" is not a folder of ${root} (a link or a file): refused.`);
  for (const t of TABLES) {
    const file = join(dir, `${t}.parquet`);
    if (existsSync(file) && !lstatSync(file).isFile())
      throw new ReportError(`recorded runs "${name}": ${t}.parquet is not a regular file (a link?): refused.`);
  }
  return dir;
}

/** Removes temporary workspaces that processes killed before closing theirs left behind (their pid is dead). */
function removeStale(): void {
  const uid = process.getuid?.();
  for (const entry of readdirSync(tmpdir())) {
    const pid = Number(entry.match(TEMP_NAME)?.[1]);
    if (!pid || pid === process.pid || pidAlive(pid)) continue;
    const path = join(tmpdir(), entry);
    try {
      if (uid === undefined || lstatSync(path).uid === uid) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove: the next start tries again.
    }
  }
}

/**
 * The recorded example runs (`evolve` runs made by the kit, exported as one Parquet file per table) imported
 * into a fresh workspace under the system temp folder, for analysis in seconds. `name` is a plain folder name
 * under data/recorded-runs. The caller closes the workspace, which removes its folder (6–50 MB); one never
 * closed is removed at exit, and one left by a killed process at the next call.
 */
export async function openRecordedRuns(name = "cars"): Promise<Workspace> {
  const dir = recordedRunsFolder(name);
  removeStale();
  const temp = mkdtempSync(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-${name}-`));
  open.add(temp);
  if (!exitHook) {
    exitHook = true;
    process.on("exit", () => open.forEach((d) => rmSync(d, { recursive: true, force: true })));
  }
  const remove = () => {
    open.delete(temp);
    rmSync(temp, { recursive: true, force: true });
  };
  let ws: Workspace | undefined;
  try {
    ws = await openWorkspace(join(temp, "ws"));
    // The recordings are the kit's own files (whoever can change them can change the kit): their JSON is not
    // checked here as `workspace import` checks a file, but every loader bounds what it walks (checkpoints).
    for (const t of TABLES)
      if (existsSync(join(dir, `${t}.parquet`))) await importParquet(ws, join(dir, `${t}.parquet`), t);
  } catch (e) {
    ws?.close();
    remove();
    throw e;
  }
  const close = ws.close.bind(ws);
  ws.close = () => {
    close();
    remove();
  };
  return ws;
}
