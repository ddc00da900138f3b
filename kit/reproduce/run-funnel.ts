// Running the funnel experiment: the corpus build of its candidates (a named sample into the experiment's
// workspace, or the whole manifest into the kit's corpus that every suite reads), then the funnel table per stage
// beside the paper's Kaggle-branch funnel. A rebuild redoes only changed candidates (gym's own cache).
import { join } from "node:path";
import { buildCorpus, funnelTable, loadManifest, type CorpusEvent, type FunnelTable } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { ReproduceError } from "./errors.js";
import { kitSource, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import { referenceRows, type TableRow } from "./search-table.js";

export interface FunnelResult {
  readonly buildId: string;
  /** Where the corpus was built (the experiment's sample folder, or the kit's corpus). */
  readonly dir: string | null;
  readonly candidates: number;
  /** Candidates answered from an earlier build. */
  readonly cached: number;
  readonly wallS: number;
  readonly table: FunnelTable;
}

/** A sample (preset `candidates`) builds into `<workspace>/corpus-sample`; the whole manifest into the kit's corpus. */
export async function runFunnelExperiment(opts: {
  readonly workspace: Workspace;
  readonly spec: ExperimentSpec;
  readonly preset: ReproducePreset;
  readonly onEvent?: (e: CorpusEvent) => void;
}): Promise<FunnelResult> {
  const { spec, preset } = opts;
  const p = spec.presets[preset];
  if (spec.kind !== "funnel" || !p)
    throw new ReproduceError(`experiment ${spec.id} has no funnel at the ${preset} preset`);
  const all = loadManifest();
  const ids = p.candidates ? new Set(p.candidates) : null;
  const manifest = ids ? all.filter((c) => ids.has(c.id)) : all;
  const unknown = ids ? [...ids].filter((id) => !all.some((c) => c.id === id)) : [];
  if (unknown.length) throw new ReproduceError(`${spec.id}: candidates ${unknown.join(", ")} are not in the manifest`);
  const dir = ids ? join(opts.workspace.dir, "corpus-sample") : null;
  const s = await buildCorpus({
    ...(dir ? { dir } : {}),
    manifest,
    ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
  });
  return {
    buildId: s.buildId,
    dir,
    candidates: s.candidates,
    cached: s.cached,
    wallS: s.wallS,
    table: funnelTable(s.records, s.index.tasks),
  };
}

const pct = (x: number | null) => (x === null ? "–" : `${(100 * x).toFixed(1)}%`);

/**
 * One row per kit stage: count = items kept (entered − failed, in the stage's unit), share = candidates with a kept
 * item at the stage / all candidates (the kind of share the paper prints); the paper's stages below, labelled.
 */
export function funnelRows(spec: ExperimentSpec, preset: ReproducePreset, r: FunnelResult): TableRow[] {
  const kit = r.table.stages.map((s): TableRow => ({
    source: kitSource(spec, preset),
    row: `${s.stage} (${s.unit})`,
    values: { count: String(s.kept), share: pct(s.candidateShare) },
  }));
  const accepted: TableRow = {
    source: kitSource(spec, preset),
    row: `accepted tasks (${r.table.accepted.candidates} of ${r.candidates} candidates)`,
    values: { count: String(r.table.accepted.tasks), share: pct(r.table.accepted.candidates / (r.candidates || 1)) },
  };
  return [...kit, accepted, ...referenceRows(spec)];
}
