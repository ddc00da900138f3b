import { z } from "zod";
import { sketchHashes, sketchOverlap, type Sketch } from "./content-sketch.js";
import type { ContentProfile } from "./content-profile.js";
import { joinTables, type JoinEvidence, type SameEntitiesEvidence } from "./study-join.js";
import { projectionEvidence, type ProjectionEvidence } from "./study-projection.js";

/**
 * Study identity by content (issue 60): which corpus candidates are one underlying data set, decided pair by pair
 * from their content profiles (content-profile.ts), pure and deterministic. studyEvidence(a, b) returns the first
 * rule that holds, with the numbers that decided:
 *   manifest       both state one study in the manifest;
 *   split          one package, one schema (the same column names and kinds, in order) and ids equal once the split
 *                  tokens are removed (train, training, test, testing, valid, validation, val, holdout, each with
 *                  trailing digits): train / validation / test parts of one set have disjoint rows, so only names
 *                  can tell them; this is the one rule that reads names;
 *   signatures     today's rule: one row count and >= `minSignatures` shared column signatures that are not
 *                  trivial (carried by more than `trivialCarriers` items of that row count);
 *   reordered-copy / row-subset
 *                  >= `minRowShare` of the smaller table's rows (order-free row fingerprints, over all columns, else
 *                  over the number columns; a row index left out) are rows of the other, >= `minSharedRows` of them,
 *                  and the smaller table's rows are >= `minDistinctRowShare` distinct (a table of flags and codes
 *                  repeats its few rows and proves nothing); both ways: reordered-copy;
 *   projection     the same over the columns two small tables share, found by their value multisets
 *                  (study-projection.ts: >= `minColumnShare` containment, >= 3 and >= half of the columns, calendar
 *                  columns not counted): one table shipped with other or fewer columns;
 *   wide-long / near-copy / same-entities
 *                  joins on shared key values (study-join.ts: a number column pair at r >= `nearCopyR` over the
 *                  matched rows; or the same entities with an agreeing label and correlated per-entity means);
 *   value-sets     >= `minValuePairs` distinct number column pairs (one-to-one) whose value sets meet at Jaccard
 *                  >= `minValueJaccard`, each side with >= `minValueDistinct` compared values.
 * Hashes carried by more than `commonCarriers` items of the corpus (an all-NA row, round numbers) are ignored.
 *
 * mergeStudiesByContent (study-merge.ts) applies it over the corpus.
 */
export const StudyIdentityConfig = z
  .object({
    /** Non-trivial column signatures two tables of one row count must share (today's rule). */
    minSignatures: z.number().int().min(1).default(2),
    /** A signature carried by more items of one row count is trivial (an index, a flag, a constant). */
    trivialCarriers: z.number().int().min(1).default(4),
    /** Share of the smaller table's rows found in the other (row-subset). */
    minRowShare: z.number().min(0).max(1).default(0.9),
    /** Shared rows needed, counted in the compared sample. */
    minSharedRows: z.number().int().min(1).default(10),
    /** Distinct rows / rows the smaller table needs for its rows to count. */
    minDistinctRowShare: z.number().min(0).max(1).default(0.5),
    /** Share of a column's cells found in another column for the two to correspond (projection). */
    minColumnShare: z.number().min(0).max(1).default(0.9),
    /** Jaccard of two value sets to pair two columns (value-sets). */
    minValueJaccard: z.number().min(0).max(1).default(0.8),
    /** Column pairs needed (value-sets). */
    minValuePairs: z.number().int().min(1).default(2),
    /** Compared distinct values each column of a pair needs. */
    minValueDistinct: z.number().int().min(1).default(20),
    /** Shared entities a join needs. */
    minEntities: z.number().int().min(2).default(30),
    /** Matched rows a correlation needs. */
    minMatched: z.number().int().min(3).default(30),
    /** Pearson r of matched number columns that makes a near copy. */
    nearCopyR: z.number().min(0).max(1).default(0.99),
    /** Share of equal matched cells that makes a sliced join wide-long rather than a near copy. */
    identicalShare: z.number().min(0).max(1).default(0.9),
    /** Share of the smaller side's entities shared (same-entities). */
    minKeyShare: z.number().min(0).max(1).default(0.8),
    /** Per-entity label agreement (same-entities). */
    minAgreement: z.number().min(0).max(1).default(0.95),
    /** -log10 of the chance of that agreement (same-entities). */
    minSurprise: z.number().min(0).default(8),
    /** Pearson r of per-entity means (same-entities). */
    entityR: z.number().min(0).max(1).default(0.8),
    /** A row or value hash carried by more items is common: ignored. */
    commonCarriers: z.number().int().min(1).default(8),
    /** Items a key value may be carried by and still propose pairs (countries, states). */
    keyCarriers: z.number().int().min(1).default(40),
  })
  .strict();
export type StudyIdentityConfig = z.infer<typeof StudyIdentityConfig>;

/** A candidate as study identity sees it. */
export interface ContentStudyItem {
  readonly id: string;
  /** The manifest's study (the candidate id when it states none). */
  readonly study: string;
  /** The package that ships it (the split rule). */
  readonly package: string;
  readonly nRows: number;
  /** TableProfile.signatures (today's rule). */
  readonly signatures: readonly string[];
  /** Null when the table could not be profiled: only manifest and signatures apply. */
  readonly content: ContentProfile | null;
}

export type RowEvidence = {
  readonly kind: "reordered-copy" | "row-subset";
  readonly over: "all" | "numeric";
  /** Shared rows, and rows of the smaller table, in the compared sample. */
  readonly shared: number;
  readonly of: number;
  /** Rows of each table (A, B). */
  readonly rows: readonly [number, number];
  /** The sample's share of each table (1: every row compared). */
  readonly rate: number;
};
export type StudyEvidence =
  | { readonly kind: "manifest"; readonly study: string }
  | { readonly kind: "split"; readonly base: string; readonly package: string; readonly columns: number }
  | { readonly kind: "signatures"; readonly shared: number; readonly nRows: number }
  | RowEvidence
  | ProjectionEvidence
  | JoinEvidence
  | SameEntitiesEvidence
  | {
      readonly kind: "value-sets";
      readonly pairs: readonly { readonly columns: readonly [string, string]; readonly jaccard: number }[];
    };
export type StudyEvidenceKind = StudyEvidence["kind"];

/** Corpus-level facts a pair's evidence needs (mergeStudiesByContent computes them; empty for a lone pair). */
export interface StudyContext {
  /** `${nRows}\0${signature}` of signatures carried by more than trivialCarriers items. */
  readonly trivialSignatures?: ReadonlySet<string>;
  /** Row and value hashes carried by more than commonCarriers items. */
  readonly common?: ReadonlySet<number>;
}

const SPLIT_TOKEN = /^(train|training|test|testing|valid|validation|val|holdout)\d*$/;

/** The id without its split tokens ("r-modeldata-bivariate-train" → "r-modeldata-bivariate"), or null if none. */
export function splitBase(id: string): string | null {
  const parts = id.toLowerCase().split(/[-_.\s]+/);
  const kept = parts.filter((p) => !SPLIT_TOKEN.test(p));
  return kept.length < parts.length ? kept.join("-").replace(/[-_.\d]+$/, "") : null;
}

const schemaOf = (p: ContentProfile) =>
  p.columns.map((c) => `${c.name}\0${c.kind === "integer" ? "number" : c.kind}`).join("\u0001");

/** The first rule that makes a and b one study (rules above), or null. */
export function studyEvidence(
  a: ContentStudyItem,
  b: ContentStudyItem,
  config: z.input<typeof StudyIdentityConfig> = {},
  ctx: StudyContext = {},
): StudyEvidence | null {
  const cfg = StudyIdentityConfig.parse(config);
  if (a.study === b.study) return { kind: "manifest", study: a.study };
  const [ca, cb] = [a.content, b.content];
  const base = splitBase(a.id);
  if (ca && cb && base && a.package === b.package && base === splitBase(b.id) && schemaOf(ca) === schemaOf(cb))
    return { kind: "split", base, package: a.package, columns: ca.columns.length };
  if (a.nRows === b.nRows) {
    const trivial = ctx.trivialSignatures ?? new Set<string>();
    const sb = new Set(b.signatures);
    const shared = [...new Set(a.signatures)].filter((s) => sb.has(s) && !trivial.has(`${a.nRows}\0${s}`)).length;
    if (shared >= cfg.minSignatures) return { kind: "signatures", shared, nRows: a.nRows };
  }
  if (!ca || !cb) return null;
  const common = ctx.common ?? new Set<number>();
  return (
    rowEvidence(ca, cb, "all", cfg, common) ??
    rowEvidence(ca, cb, "numeric", cfg, common) ??
    projectionEvidence(ca, cb, cfg) ??
    joinTables(ca, cb, cfg) ??
    valueSets(ca, cb, cfg, common)
  );
}

function rowEvidence(
  a: ContentProfile,
  b: ContentProfile,
  over: "all" | "numeric",
  cfg: StudyIdentityConfig,
  common: ReadonlySet<number>,
): RowEvidence | null {
  const [sa, sb] = over === "all" ? [a.rows, b.rows] : [a.numericRows, b.numericRows];
  if (!sa || !sb || a.columns.length < 2 || b.columns.length < 2) return null;
  const o = sketchOverlap(sa, sb, common, hashesOf(sa), hashesOf(sb));
  const aSmaller = a.nRows <= b.nRows;
  const [small, large, distinct] = aSmaller ? [o.a, o.b, o.distinctA] : [o.b, o.a, o.distinctB];
  if (o.shared < cfg.minSharedRows || small === 0 || distinct < cfg.minDistinctRowShare * small) return null;
  if (o.shared < cfg.minRowShare * small) return null;
  const kind = o.shared >= cfg.minRowShare * large ? "reordered-copy" : "row-subset";
  return { kind, over, shared: o.shared, of: small, rows: [a.nRows, b.nRows], rate: o.rate };
}

function valueSets(
  a: ContentProfile,
  b: ContentProfile,
  cfg: StudyIdentityConfig,
  common: ReadonlySet<number>,
): StudyEvidence | null {
  const pairs: { i: number; j: number; jaccard: number }[] = [];
  a.values.forEach((va, i) =>
    b.values.forEach((vb, j) => {
      const o = sketchOverlap(va.sketch, vb.sketch, common, hashesOf(va.sketch), hashesOf(vb.sketch));
      if (o.distinctA < cfg.minValueDistinct || o.distinctB < cfg.minValueDistinct) return;
      const jaccard = o.shared / (o.distinctA + o.distinctB - o.shared);
      if (jaccard >= cfg.minValueJaccard) pairs.push({ i, j, jaccard });
    }),
  );
  // One-to-one, greedy by Jaccard (ties: column order).
  const [usedA, usedB] = [new Set<number>(), new Set<number>()];
  const chosen = pairs
    .sort((x, y) => y.jaccard - x.jaccard || x.i - y.i || x.j - y.j)
    .filter((p) => !usedA.has(p.i) && !usedB.has(p.j) && (usedA.add(p.i), usedB.add(p.j)));
  if (chosen.length < cfg.minValuePairs) return null;
  const name = (p: ContentProfile, v: number) => p.columns[p.values[v]!.column]!.name;
  return {
    kind: "value-sets",
    pairs: chosen.map((p) => ({ columns: [name(a, p.i), name(b, p.j)] as const, jaccard: p.jaccard })),
  };
}

const decoded = new WeakMap<Sketch, Uint32Array>();
/** A sketch's hashes, decoded once per sketch object. */
export function hashesOf(s: Sketch): Uint32Array {
  let h = decoded.get(s);
  if (!h) decoded.set(s, (h = sketchHashes(s)));
  return h;
}
