import { listCheckpoints, loadCheckpoint, loopIds, saveCheckpoint } from "../erl/index.js";
import { paramsToJson } from "../policy/index.js";
import { openRecordedRuns, recordedRunsDir } from "../report/index.js";
import type { Workspace } from "../store/index.js";
import { ReproduceError } from "./errors.js";

/** What `useRecordedLoop` brought into a workspace. */
export interface RecordedLoop {
  /** The recorded loop's id: its checkpoints are `<loopId>-gN`, what the arms' "loop:gN" policies mean. */
  readonly loopId: string;
  /** Checkpoints copied in this call (names the workspace held already with identical params are not). */
  readonly imported: readonly string[];
}

/**
 * Copy the checkpoints of a loop the kit recorded (data/recorded-runs/<name>, e.g. `learning-armA`) into `ws`
 * under their own names, so experiments with "loop:gN" arms run without retraining the loop. The copies are
 * marked `source: "import"` with the recording named in their metrics. A name the workspace already holds is
 * kept when its params are identical (a rerun imports nothing) and refused otherwise.
 */
export async function useRecordedLoop(ws: Workspace, name: string): Promise<RecordedLoop> {
  const rec = await openRecordedRuns(name);
  try {
    const [loopId, ...more] = await loopIds(rec);
    if (!loopId || more.length)
      throw new ReproduceError(
        `recorded runs "${name}" hold ${loopId ? "more than one loop" : "no loop"}: pass --loop ID with a ` +
          "workspace that holds the loop's checkpoints instead",
      );
    const have = new Set((await listCheckpoints(ws)).map((c) => c.name));
    const imported: string[] = [];
    for (const c of await listCheckpoints(rec)) {
      if (!c.name.startsWith(`${loopId}-`)) continue;
      const ck = await loadCheckpoint(rec, c.name);
      if (have.has(c.name)) {
        const mine = await loadCheckpoint(ws, c.name);
        if (paramsToJson(mine.params) !== paramsToJson(ck.params))
          throw new ReproduceError(
            `checkpoint "${c.name}" in ${ws.dir} differs from the recorded loop's (${recordedRunsDir(name)}): ` +
              "use another --workspace",
          );
        continue;
      }
      await saveCheckpoint(ws, {
        name: c.name,
        params: ck.params,
        parent: ck.parent,
        source: "import",
        dataset: ck.dataset,
        config: ck.config,
        metrics: { ...ck.metrics, importedFrom: `data/recorded-runs/${name}`, recordedSource: ck.source },
      });
      imported.push(c.name);
    }
    return { loopId, imported };
  } finally {
    rec.close();
  }
}
