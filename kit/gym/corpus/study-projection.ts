import { combine32, hash32 } from "./content-sketch.js";
import { NA, type ContentProfile } from "./content-profile.js";

/**
 * Study identity over the columns two small tables share (issue 60), pure: one table shipped with other or fewer
 * columns (a package drops a column, adds a day-of-year, renames them all), where whole-row fingerprints differ.
 * Needs both tables' cells (ContentProfile.cells: tables of <= matrixCells cells). S is the table with fewer rows.
 * 1. Column correspondence: a column of S and one of the other table correspond when >= `minColumnShare` of S's
 *    cells that are not NA are cells of the other column (multiset containment) and both have >= 5 distinct
 *    values; pairs are taken one-to-one, best share first (ties: column order).
 * 2. Enough of them: >= max(3, half of S's columns) corresponding pairs that are measurements, i.e. not an evenly
 *    spaced column whose values are equally frequent (a row index, day, month, weekday, year: two calendars
 *    always correspond and prove nothing).
 * 3. Rows over the corresponding columns (in that order): >= `minRowShare` of S's rows are rows of the other
 *    table, >= `minSharedRows` of them, and S's projected rows are >= `minDistinctRowShare` distinct.
 */
export interface ProjectionConfig {
  readonly minColumnShare: number;
  readonly minRowShare: number;
  readonly minSharedRows: number;
  readonly minDistinctRowShare: number;
}

export interface ProjectionEvidence {
  readonly kind: "projection";
  /** Corresponding column names (A, B) in S's column order: for people only. */
  readonly columns: readonly (readonly [string, string])[];
  /** Rows of S found in the other table, of S's rows. */
  readonly shared: number;
  readonly of: number;
  readonly rows: readonly [number, number];
}

const NA_HASH = hash32(NA);

function columnsOf(p: ContentProfile): Uint32Array[] {
  const buf = Buffer.from(p.cells!, "base64");
  return p.columns.map((_, c) => {
    const col = new Uint32Array(p.nRows);
    for (let r = 0; r < p.nRows; r++) col[r] = buf.readUInt32LE((c * p.nRows + r) * 4);
    return col;
  });
}

/** Σ min(count in x, count in y) over two sorted arrays. */
function sharedCount(x: Uint32Array, y: Uint32Array): number {
  let [i, j, n] = [0, 0, 0];
  while (i < x.length && j < y.length) {
    if (x[i]! < y[j]!) i++;
    else if (x[i]! > y[j]!) j++;
    else (n++, i++, j++);
  }
  return n;
}

/** Evenly spaced with every value about equally frequent (counts' coefficient of variation < 0.5): a calendar. */
function isCalendar(p: ContentProfile, c: number, col: Uint32Array): boolean {
  if (!p.columns[c]!.evenlySpaced) return false;
  const counts = new Map<number, number>();
  for (const h of col) if (h !== NA_HASH) counts.set(h, (counts.get(h) ?? 0) + 1);
  const xs = [...counts.values()];
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
  return sd / mean < 0.5;
}

/** Rows of the smaller table found in the other over their corresponding columns (rules above), or null. */
export function projectionEvidence(
  a: ContentProfile,
  b: ContentProfile,
  cfg: ProjectionConfig,
): ProjectionEvidence | null {
  if (!a.cells || !b.cells) return null;
  const aSmall = a.nRows <= b.nRows;
  const [S, L] = aSmall ? [a, b] : [b, a];
  const [cs, cl] = [columnsOf(S), columnsOf(L)];
  const present = (col: Uint32Array) => col.filter((h) => h !== NA_HASH).sort();
  const [ss, sl] = [cs.map(present), cl.map(present)];
  // 1. Column correspondence.
  const pairs: { i: number; j: number; share: number }[] = [];
  ss.forEach((x, i) => {
    if (S.columns[i]!.distinct < 5 || x.length === 0) return;
    sl.forEach((y, j) => {
      if (L.columns[j]!.distinct < 5) return;
      const share = sharedCount(x, y) / x.length;
      if (share >= cfg.minColumnShare) pairs.push({ i, j, share });
    });
  });
  const [usedS, usedL] = [new Set<number>(), new Set<number>()];
  const chosen = pairs
    .sort((p, q) => q.share - p.share || p.i - q.i || p.j - q.j)
    .filter((p) => !usedS.has(p.i) && !usedL.has(p.j) && (usedS.add(p.i), usedL.add(p.j)))
    .sort((p, q) => p.i - q.i);
  // 2. Enough measurements among them.
  const measured = chosen.filter((p) => !isCalendar(S, p.i, cs[p.i]!)).length;
  if (measured < Math.max(3, Math.ceil(S.columns.length / 2))) return null;
  // 3. Rows over the corresponding columns.
  const project = (cols: Uint32Array[], n: number, pick: (p: { i: number; j: number }) => number) =>
    Uint32Array.from({ length: n }, (_, r) => combine32(chosen.map((p) => cols[pick(p)]![r]!))).sort();
  const rs = project(cs, S.nRows, (p) => p.i);
  const rl = project(cl, L.nRows, (p) => p.j);
  const shared = sharedCount(rs, rl);
  const distinct = new Set(rs).size;
  if (shared < cfg.minSharedRows || shared < cfg.minRowShare * S.nRows) return null;
  if (distinct < cfg.minDistinctRowShare * S.nRows) return null;
  const names = chosen.map((p) => {
    const [x, y] = [S.columns[p.i]!.name, L.columns[p.j]!.name];
    return (aSmall ? [x, y] : [y, x]) as [string, string];
  });
  return { kind: "projection", columns: names, shared, of: S.nRows, rows: [a.nRows, b.nRows] };
}
