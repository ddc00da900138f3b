import { percentile } from "./mean-std.js";

/** The median of numbers (mean of the two middle values for an even count), as pandas computes it. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of no values");
  return percentile(values, 50);
}
