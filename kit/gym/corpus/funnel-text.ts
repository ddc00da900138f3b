// The funnel table for people (`openmle task funnel`): counts with thousands separators, shares as percentages,
// sizes in KiB/MiB, "—" where there is nothing to divide by; the paper's shares beside the kit's.
import type { FunnelStageRow, FunnelTable, MixRow, Quantiles } from "./funnel.js";
import { PAPER_FUNNEL, PAPER_STAGE_OF } from "./paper-funnel.js";

const n = (x: number) => x.toLocaleString("en-US");
export const pct = (x: number | null) => (x === null || !Number.isFinite(x) ? "—" : `${(100 * x).toFixed(1)}%`);

/** Bytes for people: B, KiB, MiB, GiB (3 significant digits). */
export function formatBytes(b: number): string {
  if (!Number.isFinite(b)) return "—";
  const units = ["B", "KiB", "MiB", "GiB"];
  let v = b;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) ((v /= 1024), u++);
  return u === 0 ? `${Math.round(v)} B` : `${Number(v.toPrecision(3))} ${units[u]}`;
}

const num = (x: number) => (Number.isFinite(x) ? String(Number(x.toPrecision(3))) : "—");

/** Plain columns: the first left-aligned, the others right-aligned, two spaces apart, a rule under the header. */
function columns(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

function paperCell(s: FunnelStageRow): string {
  const i = PAPER_STAGE_OF[s.stage];
  if (i === null) return "— (kit only)";
  const p = PAPER_FUNNEL.stages[i];
  return `${pct(p.share)} ${p.label}`;
}

const mixText = <K extends string>(rows: readonly MixRow<K>[]) =>
  rows.length ? rows.map((r) => `${r.key} ${n(r.count)} (${pct(r.share)})`).join(", ") : "none";

const quantText = (q: Quantiles | null, f: (x: number) => string) =>
  q ? `min ${f(q.min)}, q25 ${f(q.q25)}, median ${f(q.median)}, q75 ${f(q.q75)}, max ${f(q.max)}` : "—";

const BIN_LABELS = ["[0, 0.2)", "[0.2, 0.4)", "[0.4, 0.6)", "[0.6, 0.8)", "[0.8, 1]"];

/** The whole funnel as text: the stage table beside the paper's shares, rejection reasons, the accepted mix. */
export function funnelText(t: FunnelTable, buildId: string): string {
  const a = t.accepted;
  const head =
    `corpus build ${buildId}: ${n(t.candidates)} candidates → ${n(a.tasks)} accepted tasks from ` +
    `${n(a.candidates)} candidates (${n(a.studies)} distinct studies)`;
  const note =
    "export and frame count candidates; build, quality, headroom and gate count framed tasks (one candidate may " +
    "frame several); skipped items go on (kept = entered − failed)";
  const table = columns([
    [
      "stage",
      "counts",
      "entered",
      "passed",
      "failed",
      "skipped",
      "kept of entered",
      "candidates kept",
      "paper (share of sources)",
    ],
    ...t.stages.map((s) => [
      s.stage,
      s.unit,
      n(s.entered),
      n(s.passed),
      n(s.failed),
      n(s.skipped),
      pct(s.keptShare),
      `${n(s.keptCandidates)} (${pct(s.candidateShare)})`,
      paperCell(s),
    ]),
  ]);
  const paper =
    `paper: ${PAPER_FUNNEL.citation}: ` +
    PAPER_FUNNEL.stages.map((s, i) => (i ? `${n(s.count)} (${pct(s.share)})` : `~${n(s.count)}`)).join(" → ");
  const reasons = t.stages
    .filter((s) => s.reasons.length)
    .map((s) => `  ${s.stage}: ${s.reasons.map((r) => `${r.reason} ×${n(r.count)}`).join("; ")}`);
  return [
    head,
    note,
    "",
    table,
    paper,
    "",
    "top rejection and skip reasons (grouped by their leading words)",
    ...(reasons.length ? reasons : ["  none"]),
    "",
    `accepted tasks: ${n(a.tasks)}${a.synthesised ? ` (${n(a.synthesised)} synthesised, labelled so)` : ""}`,
    `  modalities: ${mixText(a.modalities)}`,
    `  no accepted task: ${a.missingModalities.length ? a.missingModalities.join(", ") : "every modality has one"}`,
    `  task types: ${mixText(a.taskTypes)}`,
    `  package size: ${quantText(a.packageBytes, formatBytes)}`,
    `  headroom (normalised, 0 = constant, 1 = perfect): ${quantText(a.headroom, num)}`,
    `  headroom per fifth: ${a.headroomBins.map((c, i) => `${BIN_LABELS[i]} ${n(c)}`).join(", ")}`,
    `  paper's mix (all branches): ${Object.entries(PAPER_FUNNEL.modalities)
      .map(([k, v]) => `${k} ${pct(v)}`)
      .join(", ")}`,
  ].join("\n");
}
