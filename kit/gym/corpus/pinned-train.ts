import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { ManifestError, defaultManifestPath } from "./manifest.js";

/**
 * data/corpus/pinned-train.json: tasks that must stay in `train` whatever the suite rules draw, because a policy the
 * project ships or records was trained on them (assignSuites' `pinnedTrain`: a checkpoint is never measured on its
 * own training data). One entry per trained artefact, with where its list comes from, so the file says why.
 */
const PinnedTrainFile = z
  .object({
    note: z.string(),
    sets: z.array(z.object({ source: z.string().min(1), tasks: z.array(z.string().min(1)) }).strict()),
  })
  .strict();

/** The pinned task ids beside the manifest (none when the file is absent, e.g. a researcher's own manifest). */
export function loadPinnedTrain(manifestPath = defaultManifestPath()): string[] {
  const path = join(dirname(manifestPath), "pinned-train.json");
  if (!existsSync(path)) return [];
  const parsed = PinnedTrainFile.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success)
    throw new ManifestError(
      `${path} is not a pinned-train file (${parsed.error.issues[0]?.message ?? "invalid"}). ` +
        `Fix: {"note": "...", "sets": [{"source": "...", "tasks": ["task-id", ...]}]}.`,
      path,
    );
  return [...new Set(parsed.data.sets.flatMap((s) => s.tasks))].sort();
}
