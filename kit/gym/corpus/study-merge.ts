import { z } from "zod";
import { FULL, hash32 } from "./content-sketch.js";
import { KEY_SEED, type JoinCell, type KeySample } from "./content-profile.js";
import {
  hashesOf,
  splitBase,
  studyEvidence,
  StudyIdentityConfig,
  type ContentStudyItem,
  type StudyEvidence,
} from "./study-identity.js";

/** Two items made one study, and why. */
export interface StudyMerge {
  /** The smaller id first. */
  readonly a: string;
  readonly b: string;
  /** The study key of their group. */
  readonly study: string;
  readonly evidence: StudyEvidence;
}

export interface StudyMerges {
  /** Item id → the study key of its group, for every item given. */
  readonly studies: Map<string, string>;
  /** The pairs with evidence, by study then ids (manifest groups: the first member with each other one). */
  readonly merges: readonly StudyMerge[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const ITEMS = 2 ** 16;
const ATTR_SEED = 0x617474;

/** hash32(key + "\u0001" + value) for each entity's value of each column constant within the entity. */
function entityAttributes(k: KeySample, j: number): number[] {
  const byKey = new Map<string, (readonly JoinCell[])[]>();
  for (const row of k.rows) {
    const key = String(row[j]);
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  const out: number[] = [];
  for (const [key, rows] of byKey)
    for (let c = 0; c < k.columns.length; c++) {
      const v = rows[0]![c];
      if (c !== j && v !== null && rows.every((r) => r[c] === v)) out.push(hash32(`${key}\u0001${v}`, ATTR_SEED));
    }
  return out;
}

/** [hash, its items ascending and distinct] of (hash · ITEMS + item) entries. */
function postings(entries: readonly number[]): [number, number[]][] {
  const a = Float64Array.from(entries).sort();
  const out: [number, number[]][] = [];
  for (let i = 0; i < a.length;) {
    const h = Math.floor(a[i]! / ITEMS);
    const items: number[] = [];
    for (; i < a.length && Math.floor(a[i]! / ITEMS) === h; i++) {
      const it = a[i]! % ITEMS;
      if (items[items.length - 1] !== it) items.push(it);
    }
    out.push([h, items]);
  }
  return out;
}

/** Union-find over indices with path halving; the root is the smallest index (deterministic). */
function unionFind(n: number) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  return { find, union };
}

/**
 * The studies of a corpus by content (study-identity.ts's rules), independent of input order:
 * 1. corpus facts: signatures carried by more than `trivialCarriers` items of one row count are trivial; row and
 *    value hashes carried by more than `commonCarriers` items are common;
 * 2. proposed pairs: one non-trivial signature at one row count, one split base in one package, or enough shared
 *    in one inverted index to pass a rule's count: >= `minSharedRows` row hashes; >= minValuePairs ·
 *    minValueDistinct · minValueJaccard value hashes; >= `minEntities` key values (postings of at most
 *    `keyCarriers` items for strings, `commonCarriers` for numbers: ids 1..k and years are everywhere); or
 *    >= `minEntities` (key, value) pairs of a column constant within each entity (a tree's treatment, a kid's
 *    mother: numbered ids become specific with what they carry). Postings of row and value hashes and of
 *    (key, value) pairs are skipped past `commonCarriers` items. Nothing else is compared, so the work grows with
 *    what tables share, not with the square of their number. One manifest study joins its members without
 *    comparing (the first member with each other one);
 * 3. studyEvidence on each proposed pair (ids in order); a pair with evidence is one study (union-find);
 * 4. each group's key: the smallest study an item states that differs from its own id, else the smallest id.
 */
export function mergeStudiesByContent(
  items: readonly ContentStudyItem[],
  config: z.input<typeof StudyIdentityConfig> = {},
): StudyMerges {
  const cfg = StudyIdentityConfig.parse(config);
  const sorted = [...items].sort((a, b) => cmp(a.id, b.id));
  const n = sorted.length;
  // 1. Corpus facts.
  const sigCarriers = new Map<string, number[]>();
  sorted.forEach((it, i) => {
    for (const s of new Set(it.signatures)) {
      const key = `${it.nRows}\0${s}`;
      push(sigCarriers, key, i);
    }
  });
  const trivialSignatures = new Set([...sigCarriers].filter(([, c]) => c.length > cfg.trivialCarriers).map(([k]) => k));
  // Inverted indices as sorted (hash, item) entries: hash · 2^16 + item, exact in a double below 2^53.
  const [rowEntries, valueEntries, keyEntries, attrEntries]: number[][] = [[], [], [], []];
  sorted.forEach((it, i) => {
    const p = it.content;
    if (!p) return;
    for (const s of [p.rows, p.numericRows, ...p.values.map((v) => v.sketch)])
      if (s)
        for (const h of hashesOf(s))
          (s === p.rows || s === p.numericRows ? rowEntries : valueEntries).push(h * ITEMS + i);
    for (const k of p.keys) {
      const j = k.columns.indexOf(k.column);
      // Number keys (ids 1..k, years) above 2^32 in this index: they are common past commonCarriers, not keyCarriers.
      for (const row of k.rows)
        keyEntries.push((hash32(String(row[j]), KEY_SEED) + (typeof row[j] === "number" ? FULL : 0)) * ITEMS + i);
      for (const h of entityAttributes(k, j)) attrEntries.push(h * ITEMS + i);
    }
  });
  const [rowPostings, valuePostings, keyPostings, attrPostings] = [
    rowEntries,
    valueEntries,
    keyEntries,
    attrEntries,
  ].map(postings);
  const common = new Set(
    [...rowPostings, ...valuePostings].filter(([, c]) => c.length > cfg.commonCarriers).map(([h]) => h),
  );

  // 2. Proposed pairs (i < j): what each pair shares, by index; a pair is compared when one count can decide.
  const counts = [0, 1, 2, 3].map(() => new Map<number, number>());
  const needed = [
    cfg.minSharedRows,
    Math.ceil(cfg.minValuePairs * cfg.minValueDistinct * cfg.minValueJaccard),
    cfg.minEntities,
    cfg.minEntities,
  ] as const;
  const allPairs = (idx: readonly number[], index: number) => {
    const m = counts[index];
    for (let x = 0; x < idx.length; x++)
      for (let y = x + 1; y < idx.length; y++) {
        const key = idx[x]! * n + idx[y]!;
        m.set(key, (m.get(key) ?? 0) + 1);
      }
  };
  for (const [index, post] of [
    [0, rowPostings],
    [1, valuePostings],
    [3, attrPostings],
  ] as const)
    for (const [, idx] of post) if (idx.length <= cfg.commonCarriers) allPairs(idx, index);
  for (const [h, idx] of keyPostings)
    if (idx.length <= (h >= FULL ? cfg.commonCarriers : cfg.keyCarriers)) allPairs(idx, 2);
  const proposed = new Set<number>();
  counts.forEach((m, index) => m.forEach((k, key) => k >= needed[index] && proposed.add(key)));
  const forced = (idx: readonly number[]) => {
    for (let x = 0; x < idx.length; x++) for (let y = x + 1; y < idx.length; y++) proposed.add(idx[x]! * n + idx[y]!);
  };
  for (const idx of sigCarriers.values()) if (idx.length <= cfg.trivialCarriers) forced(idx);
  const groups = (keyOf: (it: ContentStudyItem) => string | null) => {
    const m = new Map<string, number[]>();
    sorted.forEach((it, i) => {
      const k = keyOf(it);
      if (k !== null) push(m, k, i);
    });
    return [...m.values()].filter((g) => g.length > 1);
  };
  for (const g of groups((it) => splitBase(it.id) && `${it.package}\0${splitBase(it.id)}`)) forced(g);
  const manifest = groups((it) => it.study);

  // 3. Evidence, and the union.
  const uf = unionFind(n);
  const edges: { i: number; j: number; evidence: StudyEvidence }[] = [];
  for (const g of manifest)
    for (const j of g.slice(1)) {
      uf.union(g[0]!, j);
      edges.push({ i: g[0]!, j, evidence: { kind: "manifest", study: sorted[j]!.study } });
    }
  const ctx = { trivialSignatures, common };
  for (const key of [...proposed].sort((x, y) => x - y)) {
    const [i, j] = [Math.floor(key / n), key % n];
    if (sorted[i]!.study === sorted[j]!.study) continue;
    const evidence = studyEvidence(sorted[i]!, sorted[j]!, cfg, ctx);
    if (!evidence) continue;
    uf.union(i, j);
    edges.push({ i, j, evidence });
  }

  // 4. Study keys.
  const members = new Map<number, ContentStudyItem[]>();
  sorted.forEach((it, i) => push(members, uf.find(i), it));
  const studies = new Map<string, string>();
  for (const ms of members.values()) {
    const stated = ms
      .filter((m) => m.study !== m.id)
      .map((m) => m.study)
      .sort(cmp);
    const key = stated[0] ?? ms.map((m) => m.id).sort(cmp)[0]!;
    for (const m of ms) studies.set(m.id, key);
  }
  const merges = edges
    .map((e) => ({
      a: sorted[e.i]!.id,
      b: sorted[e.j]!.id,
      study: studies.get(sorted[e.i]!.id)!,
      evidence: e.evidence,
    }))
    .sort((x, y) => cmp(x.study, y.study) || cmp(x.a, y.a) || cmp(x.b, y.b));
  return { studies, merges };
}
