import { existsSync, readdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { countRuns } from "../evo/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";

/**
 * Open a workspace for a CLI command that may create it, and run `fn` with it. If the command fails,
 * the workspace did not exist before (the folder was missing or empty) and no run was recorded in it,
 * the new folder is removed, so a failed command leaves nothing behind. An existing workspace, or a
 * new one that holds a run (e.g. a search whose report failed), is never removed.
 */
export async function withCommandWorkspace<T>(dir: string, fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const abs = resolve(dir);
  const isNew = !existsSync(abs) || readdirSync(abs).length === 0;
  const folderExisted = existsSync(abs);
  const ws = await openWorkspace(abs);
  let open = true;
  const close = () => {
    if (open) {
      open = false;
      ws.close();
    }
  };
  try {
    return await fn(ws);
  } catch (e) {
    const holdsRuns = isNew && (await countRuns(ws).catch(() => 1)) > 0;
    close();
    if (isNew && !holdsRuns) {
      if (folderExisted) for (const f of readdirSync(abs)) rmSync(resolve(abs, f), { recursive: true, force: true });
      else rmSync(abs, { recursive: true, force: true });
    }
    throw e;
  } finally {
    close();
  }
}
