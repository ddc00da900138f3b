/**
 * A line diff of two programs by longest common subsequence (dynamic programming over lines):
 * L[i][j] = a[i] = b[j] ? L[i+1][j+1] + 1 : max(L[i+1][j], L[i][j+1]); walking the table yields
 * kept (" "), removed ("-") and added ("+") lines in order. Programs are a few hundred lines, so
 * the O(|a|·|b|) table is small.
 */
export interface DiffLine {
  readonly op: " " | "-" | "+";
  readonly text: string;
}

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  const n = a.length;
  const m = b.length;
  const L = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      L[i]![j] = a[i] === b[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) (out.push({ op: " ", text: a[i++]! }), j++);
    else if (L[i + 1]![j]! >= L[i]![j + 1]!) out.push({ op: "-", text: a[i++]! });
    else out.push({ op: "+", text: b[j++]! });
  }
  while (i < n) out.push({ op: "-", text: a[i++]! });
  while (j < m) out.push({ op: "+", text: b[j++]! });
  return out;
}

/** The diff as unified-style text, unchanged runs longer than 2·context lines folded to "…"; no change says so. */
export function diffText(lines: readonly DiffLine[], context = 3): string {
  if (lines.every((l) => l.op === " ")) return "(no change: the code is identical)";
  const changed = lines.map((l) => l.op !== " ");
  const keep = lines.map((_, k) => changed.slice(Math.max(0, k - context), k + context + 1).some(Boolean));
  const out: string[] = [];
  let folded = false;
  lines.forEach((l, k) => {
    if (keep[k]) {
      out.push(`${l.op} ${l.text}`);
      folded = false;
    } else if (!folded) {
      out.push("  …");
      folded = true;
    }
  });
  return out.join("\n");
}
