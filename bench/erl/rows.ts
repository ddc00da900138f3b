// Held-out row sets for the analysis scripts (versus.ts, offpolicy.ts): `ROWS:GEN` specs, the baselines that apply
// to them and a task range. Rows measured on more tasks than their loop (reeval.ts --heldout-count) carry their own
// baselines (stored under their id), so a row set's tasks and baselines are its own, not only its loop's.
import {
  loadHeldout, loadHeldoutDrafts, loopBaselines, loopConfig, replayHeldoutDrafts, resolvePolicyParams, stageSettings,
  type Baselines, type HeldoutDraftRow, type HeldoutRow, type ReplayedDraft, type StrictVerdict,
} from "../../kit/erl/index.js";
import type { TaskPackage } from "../../kit/gym/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { openWorkspace, type Workspace } from "../../kit/store/index.js";

/** The stores a script reads, read-only: recorded folders (`recorded`, comma-separated NAMEs of data/recorded-runs),
 * else workspaces (`workspaces`, comma-separated folders). */
export async function openSources(recorded: string, workspaces: string): Promise<Workspace[]> {
  const names = recorded.split(",").filter(Boolean);
  return names.length
    ? Promise.all(names.map((n) => openRecordedRuns(n)))
    : Promise.all(workspaces.split(",").filter(Boolean).map((d) => openWorkspace(d, { readOnly: true })));
}

/** `read` on the first of `sources` that holds what it reads; the last source's error when none does. */
export async function fromFirst<T>(sources: readonly Workspace[], read: (w: Workspace) => Promise<T>): Promise<T> {
  for (const w of sources.slice(0, -1)) {
    const got = await read(w).then((x) => ({ x }), () => null);
    if (got) return got.x;
  }
  return read(sources.at(-1)!);
}

/** "ROWS:GEN" → the row set's id and generation. */
export function side(s: string): { rows: string; generation: number } {
  const m = /^(.+):(\d+)$/.exec(s);
  if (!m) throw new Error(`"${s}" is not ROWS:GEN`);
  return { rows: m[1]!, generation: Number(m[2]) };
}

/** The baselines of `tasks`: the loop's, overlaid by those stored under each of `extra` (later ids win). */
export async function rowBaselines(
  ws: Workspace,
  loopId: string,
  extra: readonly string[],
  tasks: readonly string[],
): Promise<Baselines> {
  let out = await loopBaselines(ws, loopId);
  for (const id of extra) {
    const b = await loopBaselines(ws, id);
    if (!Object.keys(b).length) throw new Error(`no baselines stored under "${id}" in ${ws.dir} (reeval.ts --heldout-count stores them)`);
    out = { ...out, ...b };
  }
  return Object.fromEntries(tasks.flatMap((t) => (out[t] ? [[t, out[t]]] : [])));
}

/**
 * The rows of `spec` (ROWS:GEN) on the tasks of `range` ("A:B": the A-th to the (B−1)-th of the row set's task ids in
 * sorted order, 0-based; "" for all): the policy level's drafts, or with `level` "search" the search level's champions
 * (one per seed, which the two-stage bootstraps resample as draws).
 */
export async function loadSide<L extends "policy" | "search" = "policy">(
  ws: Workspace,
  spec: string,
  range: string,
  level?: L,
): Promise<L extends "search" ? HeldoutRow[] : HeldoutDraftRow[]>;
export async function loadSide(ws: Workspace, spec: string, range: string, level = "policy"): Promise<(HeldoutDraftRow | HeldoutRow)[]> {
  const { rows: id, generation } = side(spec);
  const all: (HeldoutDraftRow | HeldoutRow)[] = level === "search" ? await loadHeldout(ws, id) : await loadHeldoutDrafts(ws, id);
  const rows = all.filter((r) => r.generation === generation);
  if (!rows.length) throw new Error(`no ${level}-level rows ${spec} in ${ws.dir}`);
  if (!range) return rows;
  const m = /^(\d+):(\d+)$/.exec(range);
  if (!m) throw new Error(`--task-range "${range}" is not A:B`);
  const keep = new Set([...new Set(rows.map((r) => r.taskId))].sort().slice(Number(m[1]), Number(m[2])));
  return rows.filter((r) => keep.has(r.taskId));
}

/** |x − y| relative to the larger magnitude; 0 for two nulls, Infinity for one (the same grade, or not). */
export const relativeGap = (x: number | null, y: number | null): number =>
  x === null || y === null ? (x === y ? 0 : Infinity) : Math.abs(x - y) / Math.max(1e-300, Math.abs(x), Math.abs(y));

/** The verdict table (versus.ts, offpolicy.ts): one row per comparison, kit/erl strictVerdict's verdict and measures. */
export function verdictTable(title: string, rows: readonly (readonly [string, StrictVerdict])[]): string {
  const row = ([pair, v]: readonly [string, StrictVerdict]) =>
    `| ${pair} | ${v.verdict} | ${v.beatsOn.join(", ") || "–"} | ${v.worseOn.join(", ") || "–"} |`;
  return [`| A − B | ${title} | beats on | worse on |`, "|---|---|---|---|", ...rows.map(row)].join("\n");
}

/** Graded scores rounded to `digits` significant digits (0: unchanged). Grades of one program from two machines can
 * differ in the last digits (OpenBLAS's kernels and forests' threads, before the kit pinned both;
 * bench/erl/runs/2026-12-06-learning-25-grading-differences.md), so equal programs tie again once rounded. */
export const roundScores = <R extends { testScore: number | null }>(rows: readonly R[], digits: number): R[] =>
  rows.map((r) => (digits > 0 && r.testScore !== null ? { ...r, testScore: Number(r.testScore.toPrecision(digits)) } : r));

/**
 * Held-out draws rendered again exactly as heldoutDrafts drew them: loop `loopId`'s held-out draw seed and per-run
 * limit, each draw's own checkpoint (kit/erl replayHeldoutDrafts; nothing is executed). Returns each draw's spec hash
 * and program, in the order of `draws`; `tasks` must hold every draw's task.
 */
export async function renderDraws(
  ws: Workspace,
  loopId: string,
  draws: readonly { readonly taskId: string; readonly draft: number; readonly checkpoint: string }[],
  tasks: readonly TaskPackage[],
): Promise<ReplayedDraft[]> {
  const cfg = await loopConfig(ws, loopId);
  if (!cfg) throw new Error(`no loop "${loopId}" in ${ws.dir} to render the draws from`);
  const st = stageSettings(cfg);
  const labels = [...new Set(draws.map((d) => d.checkpoint))];
  const drawers = await Promise.all(labels.map(async (label) => ({ label, params: (await resolvePolicyParams(label, ws)).params })));
  return replayHeldoutDrafts({
    tasks, draws: draws.map((d) => ({ taskId: d.taskId, draft: d.draft, drawnBy: d.checkpoint })), drawers, scorers: [],
    seed: st.heldout.draftSeed, perRunTimeoutS: st.evolve.perRunTimeoutS ?? 120, withCode: true,
  });
}
