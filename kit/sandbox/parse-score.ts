/** The line every program prints (docs/paper-map.md: Task packages): `Final Validation Score: <float>`. */
const SCORE_LINE = /Final Validation Score\s*:\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf|-inf)\s*$/gim;

/**
 * The validation score from a program's stdout: the last matching line wins (programs often
 * print intermediate folds). Returns null when no line parses to a finite number.
 */
export function parseValidationScore(stdout: string): number | null {
  let last: number | null = null;
  for (const m of stdout.matchAll(SCORE_LINE)) {
    const v = Number(m[1]);
    last = Number.isFinite(v) ? v : null;
  }
  return last;
}

/** True when stdout has a score line at all (parsed or not): tells "absent" from "unparsable". */
export function hasScoreLine(stdout: string): boolean {
  return /Final Validation Score/i.test(stdout);
}
