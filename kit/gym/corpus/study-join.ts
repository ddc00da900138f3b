import { hash32 } from "./content-sketch.js";
import { KEY_SEED, type ContentProfile, type JoinCell, type KeySample } from "./content-profile.js";
import { binomialSurprise, chanceAgreement } from "./study-stats.js";

/**
 * Study identity through shared entities (issue 60), pure: two tables' join samples (ContentProfile.keys) joined on
 * a key column of each. The samples hold whole entities below a key-hash threshold, so both sides keep the same
 * entities once cut to t = min(tA, tB).
 *
 * joinTables(a, b, cfg) tries every key pair with >= `minEntities` shared entities:
 * 1. Join plans: both sides one row per entity: join on the key; one side one row per entity, the other several:
 *    slice the long side by each column that, with the key, is unique there (<= 100 values), and join the wide side
 *    to each slice; both several: join on (key, cA = cB) for column pairs unique with the key whose values meet.
 * 2. Near copy: for every number column of A and of B (not the key, not a slicing column) the Pearson r over the
 *    matched rows, with >= `minMatched` rows and >= 10 distinct values on each side (codes and flags never count),
 *    neither a sequence in key order (isSequence: ids numbered along the key correlate whatever the data).
 *    Over an ordered key (numbers, ISO dates: ContentColumn.ordered) and a plain join, r is of first differences in
 *    key order, so that two trends (two price indices, two monthly series) do not look alike. The best r >=
 *    `nearCopyR` decides: "wide-long" when the plan sliced and >= `identicalShare` of the matched cells are equal,
 *    else "near-copy".
 * 3. Same entities (the same subjects measured again, e.g. a later year), when no near copy: >= `minKeyShare` of the
 *    smaller side's entities shared, AND a per-entity label (one value per entity on both sides, 2 .. entities/2
 *    values: a group, not a relabelling of the key) agreeing on >= `minAgreement` of the shared entities with
 *    surprise -log10 P(X >= k) >= `minSurprise`, X ~ Binomial(n, p0), p0 = Σ_v pA(v)·pB(v) the agreement by
 *    chance, AND per-entity means of a number column pair (no sequence) correlating at r >= `entityR` (first
 *    differences in key order over an ordered key). A shared key alone (states, countries, years) or a shared label
 *    alone never decides.
 */
export interface JoinConfig {
  readonly minEntities: number;
  readonly minMatched: number;
  readonly nearCopyR: number;
  readonly identicalShare: number;
  readonly minKeyShare: number;
  readonly minAgreement: number;
  readonly minSurprise: number;
  readonly entityR: number;
}

export interface JoinEvidence {
  readonly kind: "wide-long" | "near-copy";
  /** Key column names (A, B): for people only; the decision reads no names. */
  readonly key: readonly [string, string];
  /** The column that sliced the long side, or the joined columns of (key, cA = cB); null for a plain join. */
  readonly by: string | null;
  readonly columns: readonly [string, string];
  readonly r: number;
  readonly matched: number;
  /** Share of the matched cell pairs that are equal. */
  readonly identical: number;
  readonly differenced: boolean;
}

export interface SameEntitiesEvidence {
  readonly kind: "same-entities";
  readonly key: readonly [string, string];
  readonly entities: number;
  readonly keyShare: number;
  readonly label: readonly [string, string];
  readonly agreement: number;
  readonly surprise: number;
  readonly columns: readonly [string, string];
  readonly r: number;
}

type Row = readonly JoinCell[];
interface Side {
  readonly p: ContentProfile;
  readonly s: KeySample;
  readonly k: number;
  readonly byKey: Map<string, Row[]>;
}

const num = (x: JoinCell | undefined): x is number => typeof x === "number";
/** Numbers by value, before strings; strings (ISO dates among them) in code-unit order. */
const keyOrder = (x: string, y: string) => {
  const [nx, ny] = [Number(x), Number(y)];
  if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
  return Number.isNaN(nx) !== Number.isNaN(ny) ? (Number.isNaN(nx) ? 1 : -1) : x < y ? -1 : x > y ? 1 : 0;
};

/** The first evidence of shared entities between two tables (rules above), or null. */
export function joinTables(
  a: ContentProfile,
  b: ContentProfile,
  cfg: JoinConfig,
): JoinEvidence | SameEntitiesEvidence | null {
  let same: SameEntitiesEvidence | null = null;
  for (const sa of a.keys)
    for (const sb of b.keys) {
      const t = Math.min(sa.t, sb.t);
      const [A, B] = [side(a, sa, t), side(b, sb, t)];
      const ordered = a.columns[sa.column]!.ordered && b.columns[sb.column]!.ordered;
      const shared = [...A.byKey.keys()].filter((key) => B.byKey.has(key)).sort(keyOrder);
      if (shared.length < cfg.minEntities) continue;
      const names = [a.columns[sa.column]!.name, b.columns[sb.column]!.name] as const;
      const near = nearCopy(A, B, shared, ordered, cfg, names);
      if (near) return near;
      const keyShare = shared.length / Math.min(A.byKey.size, B.byKey.size);
      if (!same && keyShare >= cfg.minKeyShare) same = sameEntities(A, B, shared, keyShare, ordered, cfg, names);
    }
  return same;
}

function side(p: ContentProfile, s: KeySample, t: number): Side {
  const k = s.columns.indexOf(s.column);
  const byKey = new Map<string, Row[]>();
  for (const row of s.rows) {
    const key = String(row[k]);
    if (hash32(key, KEY_SEED) >= t) continue;
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  return { p, s, k, byKey };
}

const unique = (X: Side, shared: readonly string[]) => shared.every((e) => X.byKey.get(e)!.length === 1);

/** Columns (positions in the sample) that are unique with the key over the shared entities, <= 100 values. */
function sliceColumns(X: Side, shared: readonly string[]): number[] {
  return X.s.columns.flatMap((_, j) => {
    if (j === X.k) return [];
    const values = new Set<JoinCell>();
    for (const e of shared) {
      const seen = new Set<JoinCell>();
      for (const row of X.byKey.get(e)!) {
        if (row[j] === null || seen.has(row[j]!)) return [];
        seen.add(row[j]!);
        values.add(row[j]!);
      }
    }
    return values.size > 1 && values.size <= 100 ? [j] : [];
  });
}

interface Plan {
  readonly by: string | null;
  readonly skipA: number;
  readonly skipB: number;
  readonly joins: (readonly (readonly [Row, Row])[])[];
}

function plans(A: Side, B: Side, shared: readonly string[]): Plan[] {
  const [ua, ub] = [unique(A, shared), unique(B, shared)];
  const name = (X: Side, j: number) => X.p.columns[X.s.columns[j]!]!.name;
  if (ua && ub)
    return [
      {
        by: null,
        skipA: -1,
        skipB: -1,
        joins: [shared.map((e) => [A.byKey.get(e)![0]!, B.byKey.get(e)![0]!] as const)],
      },
    ];
  if (ua !== ub) {
    const [W, L] = ua ? [A, B] : [B, A];
    return sliceColumns(L, shared).map((j) => {
      const slices = new Map<JoinCell, (readonly [Row, Row])[]>();
      for (const e of shared)
        for (const row of L.byKey.get(e)!) {
          const pair = ua ? ([W.byKey.get(e)![0]!, row] as const) : ([row, W.byKey.get(e)![0]!] as const);
          const list = slices.get(row[j]!);
          if (list) list.push(pair);
          else slices.set(row[j]!, [pair]);
        }
      return { by: name(L, j), skipA: ua ? -1 : j, skipB: ua ? j : -1, joins: [...slices.values()] };
    });
  }
  const out: Plan[] = [];
  for (const ja of sliceColumns(A, shared))
    for (const jb of sliceColumns(B, shared)) {
      const joined: (readonly [Row, Row])[] = [];
      for (const e of shared)
        for (const ra of A.byKey.get(e)!) {
          const rb = B.byKey.get(e)!.find((r) => r[jb] === ra[ja]);
          if (rb) joined.push([ra, rb]);
        }
      if (joined.length) out.push({ by: `${name(A, ja)} = ${name(B, jb)}`, skipA: ja, skipB: jb, joins: [joined] });
    }
  return out;
}

function nearCopy(
  A: Side,
  B: Side,
  shared: readonly string[],
  ordered: boolean,
  cfg: JoinConfig,
  key: readonly [string, string],
): JoinEvidence | null {
  let best: JoinEvidence | null = null;
  const numCols = (X: Side, skip: number) =>
    X.s.columns.flatMap((c, j) => (j !== X.k && j !== skip && X.p.columns[c]!.kind !== "string" ? [j] : []));
  for (const plan of plans(A, B, shared)) {
    const differenced = ordered && plan.by === null;
    for (const join of plan.joins) {
      if (join.length < cfg.minMatched) continue;
      for (const ja of numCols(A, plan.skipA))
        for (const jb of numCols(B, plan.skipB)) {
          const xy = join
            .filter(([ra, rb]) => num(ra[ja]) && num(rb[jb]))
            .map(([ra, rb]) => [ra[ja], rb[jb]] as [number, number]);
          if (xy.length < cfg.minMatched || distinct(xy, 0) < 10 || distinct(xy, 1) < 10) continue;
          if (isSequence(xy, 0) || isSequence(xy, 1)) continue;
          const r = differenced ? pearson(diffs(xy)) : pearson(xy);
          if (!(r >= cfg.nearCopyR) || (best && r <= best.r)) continue;
          const identical = xy.filter(([x, y]) => x === y).length / xy.length;
          const kind =
            plan.by !== null && plan.joins.length > 1 && identical >= cfg.identicalShare ? "wide-long" : "near-copy";
          const cols = [A.p.columns[A.s.columns[ja]!]!.name, B.p.columns[B.s.columns[jb]!]!.name] as const;
          best = { kind, key, by: plan.by, columns: cols, r, matched: xy.length, identical, differenced };
        }
    }
  }
  return best;
}

function sameEntities(
  A: Side,
  B: Side,
  shared: readonly string[],
  keyShare: number,
  ordered: boolean,
  cfg: JoinConfig,
  key: readonly [string, string],
): SameEntitiesEvidence | null {
  const name = (X: Side, j: number) => X.p.columns[X.s.columns[j]!]!.name;
  // Per-entity labels: one value per entity, 2 .. entities/2 distinct values.
  const labels = (X: Side) =>
    X.s.columns.flatMap((_, j) => {
      if (j === X.k) return [];
      const m = new Map<string, JoinCell>();
      for (const e of shared) {
        const vs = new Set(X.byKey.get(e)!.map((r) => r[j]));
        if (vs.size !== 1 || vs.has(null)) return [];
        m.set(e, [...vs][0]!);
      }
      const n = new Set(m.values()).size;
      return n >= 2 && n <= shared.length / 2 ? [{ j, m }] : [];
    });
  let label: { ja: number; jb: number; agreement: number; surprise: number } | null = null;
  for (const la of labels(A))
    for (const lb of labels(B)) {
      const k = shared.filter((e) => la.m.get(e) === lb.m.get(e)).length;
      const p0 = chanceAgreement([...la.m.values()], [...lb.m.values()]);
      const surprise = binomialSurprise(k, shared.length, p0);
      if (!label || surprise > label.surprise) label = { ja: la.j, jb: lb.j, agreement: k / shared.length, surprise };
    }
  if (!label || label.agreement < cfg.minAgreement || label.surprise < cfg.minSurprise) return null;
  // Per-entity means of the number columns, in key order.
  const order = shared;
  const means = (X: Side, j: number) =>
    order.map((e) => {
      const v = X.byKey
        .get(e)!
        .map((r) => r[j])
        .filter(num);
      return v.length ? v.reduce((s, x) => s + x, 0) / v.length : NaN;
    });
  const numCols = (X: Side) =>
    X.s.columns.flatMap((c, j) => (j !== X.k && X.p.columns[c]!.kind !== "string" ? [j] : []));
  let best: { ja: number; jb: number; r: number } | null = null;
  for (const ja of numCols(A))
    for (const jb of numCols(B)) {
      const [ma, mb] = [means(A, ja), means(B, jb)];
      const xy = ma.map((x, i) => [x, mb[i]!] as [number, number]);
      const present = xy.filter(([x, y]) => !Number.isNaN(x) && !Number.isNaN(y));
      if (isSequence(present, 0) || isSequence(present, 1)) continue;
      const r = ordered ? pearson(diffs(xy)) : pearson(xy.filter(([x, y]) => !Number.isNaN(x) && !Number.isNaN(y)));
      if (r >= cfg.entityR && (!best || r > best.r)) best = { ja, jb, r };
    }
  if (!best) return null;
  return {
    kind: "same-entities",
    key,
    entities: shared.length,
    keyShare,
    label: [name(A, label.ja), name(B, label.jb)],
    agreement: label.agreement,
    surprise: label.surprise,
    columns: [name(A, best.ja), name(B, best.jb)],
    r: best.r,
  };
}

function distinct(xy: readonly (readonly [number, number])[], i: 0 | 1): number {
  return new Set(xy.map((p) => p[i])).size;
}

/**
 * A sequence, not a measurement: >= 95% of consecutive steps (in key order) go one way, ties counted either way
 * (ids numbered in the key's order, such as a mother's id beside her children's, or a trend over years).
 */
export function isSequence(xy: readonly (readonly [number, number])[], i: 0 | 1): boolean {
  let [up, down] = [0, 0];
  for (let k = 1; k < xy.length; k++) {
    const d = xy[k]![i] - xy[k - 1]![i];
    if (d >= 0) up++;
    if (d <= 0) down++;
  }
  return xy.length > 2 && Math.max(up, down) >= 0.95 * (xy.length - 1);
}

/** Consecutive differences of the pairs (in the order given), dropping any pair with NaN. */
export function diffs(xy: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 1; i < xy.length; i++) out.push([xy[i]![0] - xy[i - 1]![0], xy[i]![1] - xy[i - 1]![1]]);
  return out.filter(([x, y]) => !Number.isNaN(x) && !Number.isNaN(y));
}

/** Pearson's r of the pairs; NaN with fewer than 3 pairs or a constant side. */
export function pearson(xy: readonly (readonly [number, number])[]): number {
  const n = xy.length;
  if (n < 3) return NaN;
  let [sx, sy] = [0, 0];
  for (const [x, y] of xy) ((sx += x), (sy += y));
  const [mx, my] = [sx / n, sy / n];
  let [cxy, cxx, cyy] = [0, 0, 0];
  for (const [x, y] of xy) ((cxy += (x - mx) * (y - my)), (cxx += (x - mx) ** 2), (cyy += (y - my) ** 2));
  return cxx > 0 && cyy > 0 ? cxy / Math.sqrt(cxx * cyy) : NaN;
}
