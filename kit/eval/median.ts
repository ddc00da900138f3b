/** The median of numbers (mean of the two middle values for an even count), as pandas computes it. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of no values");
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
