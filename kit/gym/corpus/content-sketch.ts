/**
 * Hashes and threshold sketches of the corpus's content profiles (study identity, issue 60), pure.
 *
 * hash32(s, seed): MurmurHash3's 32-bit mix over the UTF-16 code units of `s` (fast, not cryptographic: it only
 * has to spread values; a chance collision of two 32-bit hashes among 20,000 is about 1 in 20,000).
 *
 * A sketch is a consistent threshold sample of a set or multiset of 32-bit hashes: the hashes below a threshold t
 * (t = 2^32 keeps all). makeSketch keeps at most `cap` of them (t = the (cap+1)-th smallest hash, so ties at t are
 * all dropped). Two sketches compare over the hashes below t = min(tA, tB): each side's hashes there are an exact
 * uniform sample of its set at rate t / 2^32, drawn by the same hash on both sides, so shares measured over them
 * (containment, Jaccard) estimate the shares of the whole sets, and counts scale by 2^32 / t.
 * Stored as JSON: `{ n, t, h }`, n the number of hashes sketched (with repeats for a multiset), h the kept hashes
 * sorted ascending as little-endian uint32 in base64 (5.3 bytes a hash).
 */
export const FULL = 2 ** 32;

export interface Sketch {
  /** Hashes sketched (rows for a row sketch; distinct values for a value set). */
  readonly n: number;
  /** Threshold: the kept hashes are those below it; 2^32 keeps all. */
  readonly t: number;
  /** The kept hashes, sorted, as little-endian uint32 in base64. */
  readonly h: string;
}

/** MurmurHash3 (x86, 32-bit) over UTF-16 code units, unsigned. */
export function hash32(s: string, seed = 0): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    let k = Math.imul(s.charCodeAt(i), 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  return fmix32(h ^ s.length);
}

/** Murmur's finaliser: a 32-bit avalanche, unsigned. */
export function fmix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One hash of an ordered list of hashes (order-free when the caller sorts them first). */
export function combine32(hashes: ArrayLike<number>, seed = 0x9747b28c): number {
  let h = seed;
  for (let i = 0; i < hashes.length; i++) h = Math.imul(h ^ hashes[i]!, 0x01000193) ^ (h >>> 15);
  return fmix32(h ^ hashes.length);
}

/** A sketch of `hashes` (a multiset; pass distinct hashes for a set) keeping at most `cap` of them. */
export function makeSketch(hashes: ArrayLike<number>, cap: number): Sketch {
  const sorted = Uint32Array.from(hashes).sort();
  const t = sorted.length <= cap ? FULL : sorted[cap]!;
  let k = sorted.length <= cap ? sorted.length : cap;
  while (k > 0 && sorted[k - 1]! >= t) k--;
  const kept = sorted.subarray(0, k);
  const buf = Buffer.alloc(k * 4);
  for (let i = 0; i < k; i++) buf.writeUInt32LE(kept[i]!, i * 4);
  return { n: hashes.length, t, h: buf.toString("base64") };
}

/** The kept hashes of a sketch, sorted. */
export function sketchHashes(s: Sketch): Uint32Array {
  const buf = Buffer.from(s.h, "base64");
  const out = new Uint32Array(buf.length >>> 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readUInt32LE(i * 4);
  return out;
}

/** Two sketches compared over their common range (hashes below min(tA, tB)), `ignore` dropped on both sides. */
export interface SketchOverlap {
  /** t / 2^32: the share of each set the compared hashes are (1: exact). */
  readonly rate: number;
  /** Hashes of each side in the common range (with repeats for a multiset). */
  readonly a: number;
  readonly b: number;
  /** Multiset intersection: Σ min(count in A, count in B). */
  readonly shared: number;
  /** Distinct hashes of A in the common range (a / distinctA > 1: A repeats rows). */
  readonly distinctA: number;
  readonly distinctB: number;
}

export function sketchOverlap(
  sa: Sketch,
  sb: Sketch,
  ignore: ReadonlySet<number> = new Set(),
  ha: Uint32Array = sketchHashes(sa),
  hb: Uint32Array = sketchHashes(sb),
): SketchOverlap {
  const t = Math.min(sa.t, sb.t);
  let [i, j, a, b, shared, da, db] = [0, 0, 0, 0, 0, 0, 0];
  const skip = (x: number) => x >= t || ignore.has(x);
  while (i < ha.length || j < hb.length) {
    const x = i < ha.length ? ha[i]! : Infinity;
    const y = j < hb.length ? hb[j]! : Infinity;
    const v = Math.min(x, y);
    if (v >= t) break;
    let ca = 0;
    let cb = 0;
    while (i < ha.length && ha[i] === v) (i++, ca++);
    while (j < hb.length && hb[j] === v) (j++, cb++);
    if (skip(v)) continue;
    a += ca;
    b += cb;
    shared += Math.min(ca, cb);
    if (ca) da++;
    if (cb) db++;
  }
  return { rate: t / FULL, a, b, shared, distinctA: da, distinctB: db };
}
