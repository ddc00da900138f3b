// The files of study identity (issue 60): each export's content profile cached as raw/<id>/content.json, and the
// merges of the last corpus build as studies.json in the corpus root (snake_case JSON, like index.json), with the
// words `openmle task studies` prints for each piece of evidence.
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { csvParseRows } from "d3-dsv";
import { z } from "zod";
import { camelKeys, snakeKeys } from "../../util/index.js";
import {
  CONTENT_PROFILE_VERSION,
  contentProfile,
  ContentProfileConfig,
  type ContentProfile,
} from "./content-profile.js";
import { corpusDir } from "./paths.js";
import type { StudyEvidence, StudyEvidenceKind } from "./study-identity.js";
import type { StudyMerge } from "./study-merge.js";

/**
 * The header and rows of a CSV file, bounded: at most `maxBytes` bytes are read (a longer file is cut at its last
 * complete line and its last row dropped, as it may be half a quoted field) and at most `maxRows` rows kept;
 * `truncated` says either happened.
 */
export function readTableBounded(
  path: string,
  bounds: { readonly maxRows: number; readonly maxBytes: number },
): { header: string[]; rows: string[][]; truncated: boolean } {
  const fd = openSync(path, "r");
  let buf: Buffer;
  let cut: boolean;
  try {
    const size = fstatSync(fd).size;
    cut = size > bounds.maxBytes;
    buf = Buffer.alloc(Math.min(size, bounds.maxBytes));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    buf = buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
  if (cut) buf = buf.subarray(0, buf.lastIndexOf(0x0a) + 1);
  const all = csvParseRows(buf.toString("utf8"), (row, i) => (i <= bounds.maxRows + 1 ? row : null));
  const header = all[0] ?? [];
  let rows = all.slice(1);
  if (cut) rows = rows.slice(0, -1);
  const truncated = cut || rows.length > bounds.maxRows;
  return { header, rows: rows.slice(0, bounds.maxRows), truncated };
}

/** content.json: the profile with the version, config and table.csv (size, mtime) it was computed from. */
const ContentFile = z
  .object({
    version: z.number(),
    config: z.string(),
    table: z.object({ bytes: z.number(), mtime_ms: z.number() }).strict(),
    profile: z.record(z.string(), z.unknown()),
  })
  .strict();

/**
 * The content profile of the export in `dir` (its table.csv), from content.json while that was computed by this
 * profile version and config from the same table.csv (size and mtime: an export replaces the folder, so a new
 * export is always profiled again); else computed and cached (written through a temporary file). Null when the
 * folder has no table.csv.
 */
export function loadContentProfile(dir: string, config: ContentProfileConfig = {}): ContentProfile | null {
  const table = join(dir, "table.csv");
  if (!existsSync(table)) return null;
  const cfg = ContentProfileConfig.parse(config);
  const st = statSync(table);
  const stamp = {
    version: CONTENT_PROFILE_VERSION,
    config: JSON.stringify(cfg),
    table: { bytes: st.size, mtime_ms: st.mtimeMs },
  };
  const file = join(dir, "content.json");
  try {
    const cached = ContentFile.parse(JSON.parse(readFileSync(file, "utf8")));
    const { profile, ...rest } = cached;
    if (JSON.stringify(rest) === JSON.stringify(stamp)) return camelKeys(profile) as ContentProfile;
  } catch {
    // Missing, unreadable or stale: computed again below.
  }
  const { header, rows, truncated } = readTableBounded(table, cfg);
  const profile = contentProfile(header, rows, cfg, truncated);
  writeFileSync(`${file}.tmp`, JSON.stringify({ ...stamp, profile: snakeKeys(profile) }));
  renameSync(`${file}.tmp`, file);
  return profile;
}

const KINDS = [
  "manifest",
  "split",
  "signatures",
  "reordered-copy",
  "row-subset",
  "projection",
  "wide-long",
  "near-copy",
  "same-entities",
  "value-sets",
] as const satisfies readonly StudyEvidenceKind[];

/** studies.json: `{ build_id, merges: [{ a, b, study, kind, evidence }] }`, evidence the record's other fields. */
export const StudiesFile = z
  .object({
    build_id: z.string().min(1),
    merges: z.array(
      z
        .object({
          a: z.string(),
          b: z.string(),
          study: z.string(),
          kind: z.enum(KINDS),
          evidence: z.record(z.string(), z.unknown()),
        })
        .strict(),
    ),
  })
  .strict();

export interface StudiesRecord {
  readonly buildId: string;
  readonly merges: readonly StudyMerge[];
}

export const studiesPath = (dir?: string) => join(corpusDir(dir), "studies.json");

/** Write studies.json (2-space JSON) through a temporary file, so a reader never sees half of it. */
export function writeStudies(record: StudiesRecord, dir?: string): string {
  const path = studiesPath(dir);
  const file = StudiesFile.parse({
    build_id: record.buildId,
    merges: record.merges.map(({ a, b, study, evidence: { kind, ...rest } }) => ({
      a,
      b,
      study,
      kind,
      evidence: snakeKeys(rest),
    })),
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return path;
}

/** Read studies.json of the corpus at `dir`; null when no build wrote one. Throws naming the file when invalid. */
export function readStudies(dir?: string): StudiesRecord | null {
  const path = studiesPath(dir);
  if (!existsSync(path)) return null;
  const parsed = StudiesFile.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success)
    throw new Error(`${path} is not a studies file (${parsed.error.issues[0]?.message}); rebuild the corpus`);
  return {
    buildId: parsed.data.build_id,
    merges: parsed.data.merges.map((m) => ({
      a: m.a,
      b: m.b,
      study: m.study,
      evidence: { kind: m.kind, ...(camelKeys(m.evidence) as object) } as StudyEvidence,
    })),
  };
}

const fix = (x: number, d = 3) => x.toFixed(d);
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const pair = (p: readonly [string, string]) => (p[0] === p[1] ? p[0] : `${p[0]} ~ ${p[1]}`);

/** One piece of evidence in words, ending with its kind in parentheses. */
export function evidenceText(e: StudyEvidence): string {
  switch (e.kind) {
    case "manifest":
      return `both state study "${e.study}" in the manifest (manifest)`;
    case "split":
      return `one schema of ${e.columns} columns in ${e.package}, ids equal without the split token: ${e.base} (split)`;
    case "signatures":
      return `${e.shared} column signatures shared at ${e.nRows} rows (signatures)`;
    case "reordered-copy":
    case "row-subset": {
      const over = e.over === "numeric" ? " over the number columns" : "";
      const sample = e.rate < 1 ? ` in a ${pct(e.rate)} sample` : "";
      return `${e.shared} of ${e.of} rows identical${over}${sample}; ${e.rows[0]} and ${e.rows[1]} rows (${e.kind})`;
    }
    case "projection": {
      const cols = e.columns.map(pair).join(", ");
      return (
        `${e.shared} of ${e.of} rows identical over ${e.columns.length} shared columns (${cols}); ` +
        `${e.rows[0]} and ${e.rows[1]} rows (projection)`
      );
    }
    case "wide-long":
    case "near-copy": {
      const by = e.by ? `, by ${e.by}` : "";
      const diff = e.differenced ? " (first differences)" : "";
      return (
        `r = ${fix(e.r)}${diff} over ${e.matched} matched rows of ${pair(e.columns)} joined on ${pair(e.key)}${by}; ` +
        `${pct(e.identical)} identical (${e.kind})`
      );
    }
    case "same-entities":
      return (
        `${e.entities} shared entities of ${pair(e.key)} (${pct(e.keyShare)} of the smaller side); ` +
        `label ${pair(e.label)} agrees on ${pct(e.agreement)} (chance 1e-${fix(e.surprise, 1)}); ` +
        `per-entity means of ${pair(e.columns)} at r = ${fix(e.r)} (same-entities)`
      );
    case "value-sets":
      return (
        `value sets meet: ${e.pairs.map((p) => `${pair(p.columns)} (Jaccard ${fix(p.jaccard, 2)})`).join(", ")} ` +
        "(value-sets)"
      );
  }
}
