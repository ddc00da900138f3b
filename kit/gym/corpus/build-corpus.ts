import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { LanguageModel } from "../../llm/index.js";
import { openWorkspace } from "../../store/index.js";
import { makeBuildTemp, removeStaleBuildTemps } from "../build-temp.js";
import { BUILTIN_IDS } from "../builtin/registry.js";
import { packageHash } from "../package-hash.js";
import { recordCorpusTasks, recordStages } from "./corpus-store.js";
import { readCorpusIndex, writeCorpusIndex, type CorpusIndex } from "./corpus-index.js";
import { exportCandidate, ExportConfig } from "./export.js";
import { frameCandidate, FramingConfig } from "./framing.js";
import { HeadroomConfig } from "./headroom.js";
import { loadManifest, ManifestError, manifestHash } from "./manifest.js";
import { corpusPaths } from "./paths.js";
import { loadPinnedTrain } from "./pinned-train.js";
import { assignSuites, SuiteConfig, type SuiteAssignment } from "./suites.js";
import { loadContentProfile, writeStudies } from "./studies-file.js";
import { mergeStudiesByContent } from "./study-merge.js";
import { oneLine, runTaskStages } from "./task-stages.js";
import type { Candidate, CorpusTask, ExportedTable, FunnelStage, StageRecord, TableProfile } from "./types.js";

/** Bump when a rule of the funnel changes what it builds or accepts: every cached result is then redone. */
export const FUNNEL_VERSION = "1";

/** How the corpus is built. */
export const CorpusBuildConfig = z
  .object({
    /** Candidates processed at once (each runs up to three jailed harnesses at a time while checked). */
    jobs: z.number().int().positive().max(32).default(2),
    /** Only these candidate ids (a sample); default all of the manifest. */
    only: z.array(z.string()).optional(),
    /**
     * Re-run prepare.py twice per task (checkTask's prepare_deterministic and data_drift). Off by default: every
     * corpus task's prepare.py is the kit's one template, whose determinism the corpus tests check by building
     * the same candidates twice and comparing package hashes; the re-runs would add two jailed Python start-ups
     * per task (a third of the quality stage's time).
     */
    determinism: z.boolean().default(false),
    /** Redo every stage, ignoring cached results. */
    rebuild: z.boolean().default(false),
    export: ExportConfig.prefault({}),
    framing: FramingConfig.prefault({}),
    headroom: HeadroomConfig.prefault({}),
    suites: SuiteConfig.prefault({}),
  })
  .strict();
export type CorpusBuildConfig = z.input<typeof CorpusBuildConfig>;

export type CorpusEvent =
  | { readonly type: "start"; readonly buildId: string; readonly candidates: number }
  | {
      readonly type: "candidate";
      readonly candidate: string;
      readonly done: number;
      readonly total: number;
      readonly accepted: number;
      readonly cached: boolean;
      readonly ms: number;
    }
  | { readonly type: "done"; readonly buildId: string; readonly accepted: number; readonly wallS: number };

export interface CorpusBuildOptions {
  /** The corpus folder (default corpusPaths()). */
  readonly dir?: string;
  /** The candidates (default data/corpus/candidates.json). */
  readonly manifest?: readonly Candidate[];
  readonly config?: CorpusBuildConfig;
  /** The semantic gate's model; without one the gate is recorded as skipped. */
  readonly model?: LanguageModel;
  readonly onEvent?: (e: CorpusEvent) => void;
  readonly now?: () => number;
}

export interface CorpusBuildSummary {
  readonly buildId: string;
  readonly candidates: number;
  readonly records: readonly StageRecord[];
  readonly index: CorpusIndex;
  readonly wallS: number;
  /** Candidates whose every stage came from the cache (unchanged since the last build). */
  readonly cached: number;
  /** The suites' report (assignSuites: counts per suite and stratum, the minimums, the studies kept in train). */
  readonly suites: Omit<SuiteAssignment, "suites">;
}

/** What one candidate left: its stage records (buildId filled in later) and its accepted tasks (study filled later). */
interface CandidateResult {
  readonly key: string;
  readonly records: Omit<StageRecord, "buildId">[];
  readonly tasks: Omit<CorpusTask, "study">[];
  readonly profile?: TableProfile;
}

/**
 * Build the corpus through the funnel (the paper's Fig. 3), incrementally:
 * 1. load the manifest; a build id; the candidates (all, or `only`);
 * 2. per candidate, `jobs` at a time: reuse its cached result when its key (candidate, funnel version, config) is
 *    unchanged; else export its table in the jail, frame it by the rules, and per framed task build the package
 *    (buildTask: prepare.py in the jail), verify the metric and run the quality checks (checkTask), measure the
 *    headroom, and run the semantic gate (skipped without a model); a failing stage ends that task with its reason;
 * 3. merge studies across the exports (same data shipped twice) and assign the train / dev / confirm suites;
 * 4. record every stage and the accepted tasks in the corpus workspace, and write index.json.
 */
export async function buildCorpus(opts: CorpusBuildOptions = {}): Promise<CorpusBuildSummary> {
  const now = opts.now ?? Date.now;
  const t0 = now();
  const cfg = CorpusBuildConfig.parse(opts.config ?? {});
  const paths = corpusPaths(opts.dir);
  const all = opts.manifest ?? loadManifest();
  const only = cfg.only ? new Set(cfg.only) : null;
  const cands = only ? all.filter((c) => only.has(c.id)) : [...all];
  if (only && cands.length < only.size) {
    const known = new Set(all.map((c) => c.id));
    throw new ManifestError(
      `unknown candidate(s) ${[...only].filter((id) => !known.has(id)).join(", ")}. Fix: use ids of the manifest ` +
        `(data/corpus/candidates.json, or $OPENMLE_CORPUS_MANIFEST).`,
      "only",
    );
  }
  const buildId = `corpus-${new Date(t0).toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}`;
  opts.onEvent?.({ type: "start", buildId, candidates: cands.length });
  for (const d of [paths.raw, paths.tasks, join(paths.root, "results")]) mkdirSync(d, { recursive: true });

  let done = 0;
  let accepted = 0;
  let cached = 0;
  const results = new Map<string, CandidateResult>();
  await pool(cands, cfg.jobs, async (c) => {
    const s = now();
    const key = candidateKey(c, cfg);
    const prev = cfg.rebuild ? null : readResult(paths.root, c.id, key);
    const r = prev ?? (await processCandidate(c, key, cfg, paths, opts.model, now));
    if (!prev) writeResult(paths.root, c.id, r);
    else cached++;
    results.set(c.id, r);
    done++;
    accepted += r.tasks.length;
    opts.onEvent?.({
      type: "candidate",
      candidate: c.id,
      done,
      total: cands.length,
      accepted,
      cached: !!prev,
      ms: now() - s,
    });
  });

  // Step 3: studies over the exported tables by content (study-identity.ts; each export's content profile is read
  // once and cached as raw/<id>/content.json), their evidence in studies.json, then the suites.
  const { studies, merges } = mergeStudiesByContent(
    cands
      .filter((c) => results.get(c.id)?.profile)
      .map((c) => {
        const p = results.get(c.id)!.profile!;
        const content = loadContentProfile(join(paths.raw, c.id));
        const { nRows, signatures } = p;
        return { id: c.id, study: c.study ?? c.id, package: c.package, nRows, signatures, content };
      }),
  );
  if (!only) writeStudies({ buildId, merges }, opts.dir);
  const tasks: CorpusTask[] = cands.flatMap((c) =>
    results.get(c.id)!.tasks.map((t) => ({ ...t, study: studies.get(c.id) ?? c.study ?? c.id })),
  );
  // The project's pinned training tasks (pinned-train.json) join the config's, for the project's own manifest only.
  const pinnedTrain = [...cfg.suites.pinnedTrain, ...(opts.manifest ? [] : loadPinnedTrain())];
  const { suites, ...suiteReport } = assignSuites(tasks, { ...cfg.suites, pinnedTrain }, BUILTIN_IDS);
  const records: StageRecord[] = cands.flatMap((c) => results.get(c.id)!.records.map((r) => ({ ...r, buildId })));

  // Step 4: the workspace and the index.
  const index: CorpusIndex = {
    buildId,
    builtAt: new Date(t0).toISOString(),
    manifestHash: manifestHash(all),
    tasks: tasks.map((t) => ({ ...t, suite: suites.get(t.id) ?? "train" })),
  };
  const ws = await openWorkspace(paths.workspace);
  try {
    await recordStages(ws, records);
    await recordCorpusTasks(ws, buildId, index.tasks);
  } finally {
    ws.close();
  }
  if (!only) writeCorpusIndex(index, opts.dir);
  const wallS = (now() - t0) / 1000;
  opts.onEvent?.({ type: "done", buildId, accepted: tasks.length, wallS });
  return { buildId, candidates: cands.length, records, index, wallS, cached, suites: suiteReport };
}

/**
 * The corpus index, building the corpus first when it has never been built (the loop and the benchmarks call this
 * before expanding `suite:NAME`). An existing index is used as it is, even when the manifest changed since:
 * `openmle task build-corpus` brings it up to date (unchanged candidates from the cache).
 */
export async function ensureCorpus(opts: CorpusBuildOptions = {}): Promise<CorpusIndex> {
  if (existsSync(corpusPaths(opts.dir).index)) return readCorpusIndex(opts.dir);
  return (await buildCorpus(opts)).index;
}

async function processCandidate(
  c: Candidate,
  key: string,
  cfg: z.output<typeof CorpusBuildConfig>,
  paths: ReturnType<typeof corpusPaths>,
  model: LanguageModel | undefined,
  now: () => number,
): Promise<CandidateResult> {
  const records: Omit<StageRecord, "buildId">[] = [];
  // Reasons name packages relative to the corpus folder: records and the funnel read the same on any machine.
  const rec = (stage: FunnelStage, status: StageRecord["status"], reason: string, ms: number, taskId?: string) =>
    records.push({
      candidate: c.id,
      ...(taskId ? { taskId } : {}),
      stage,
      status,
      reason: oneLine(reason.split(`${paths.root}/`).join("")),
      ms,
    });
  let t = now();
  let exported: ExportedTable;
  try {
    exported = await exportTo(c, join(paths.raw, c.id), cfg);
  } catch (e) {
    rec("export", "fail", (e as Error).message, now() - t);
    return { key, records, tasks: [] };
  }
  rec("export", "pass", `${exported.profile.nRows} rows, ${exported.profile.columns.length} columns`, now() - t);
  t = now();
  const framed = frameCandidate(c, exported.profile, cfg.framing);
  if ("rejected" in framed) {
    rec("frame", "fail", framed.rejected, now() - t);
    return { key, records, tasks: [], profile: exported.profile };
  }
  rec("frame", "pass", framed.framings.map((f) => `${f.spec.target} (${f.spec.metric})`).join(", "), now() - t);
  const tasks: Omit<CorpusTask, "study">[] = [];
  for (const f of framed.framings) {
    const task = await runTaskStages(c, f, exported, cfg, paths, model, now, (stage, status, reason, ms) =>
      rec(stage, status, reason, ms, f.taskId),
    );
    if (task) tasks.push(task);
  }
  return { key, records, tasks, profile: exported.profile };
}

/**
 * Export into a sibling temporary folder, then rename into place (a half-written export is never reused). What a
 * killed build left beside `dir` goes first (build-temp.ts: only folders whose process is gone).
 */
async function exportTo(c: Candidate, dir: string, cfg: z.output<typeof CorpusBuildConfig>): Promise<ExportedTable> {
  removeStaleBuildTemps(dir);
  const { tmp } = makeBuildTemp(dir);
  try {
    await exportCandidate(c, tmp, cfg.export);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const profile = JSON.parse(readFileSync(join(dir, "profile.json"), "utf8")) as TableProfile;
  const files = join(dir, "files");
  return {
    table: join(dir, "table.csv"),
    ...(existsSync(files) ? { filesDir: files } : {}),
    profile,
  };
}

/** The key of a candidate's cached result: what it is, the funnel's rules and the config that shapes its tasks. */
function candidateKey(c: Candidate, cfg: z.output<typeof CorpusBuildConfig>): string {
  const shaping = { export: cfg.export, framing: cfg.framing, headroom: cfg.headroom, determinism: cfg.determinism };
  return createHash("sha256")
    .update(JSON.stringify({ c, v: FUNNEL_VERSION, shaping }))
    .digest("hex")
    .slice(0, 24);
}

function readResult(root: string, id: string, key: string): CandidateResult | null {
  const file = join(root, "results", `${id}.json`);
  if (!existsSync(file)) return null;
  try {
    const r = JSON.parse(readFileSync(file, "utf8")) as CandidateResult;
    if (r.key !== key) return null;
    // A cached acceptance stands only while its package is still there, unchanged.
    for (const t of r.tasks) {
      const dir = join(root, "tasks", t.id);
      if (!existsSync(dir) || packageHash(dir) !== t.packageHash) return null;
    }
    return r;
  } catch {
    return null;
  }
}

function writeResult(root: string, id: string, r: CandidateResult): void {
  const file = join(root, "results", `${id}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(r));
  renameSync(`${file}.tmp`, file);
}

async function pool<T>(items: readonly T[], jobs: number, fn: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
}
