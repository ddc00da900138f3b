import { z } from "zod";
import { createRng } from "../../util/rng.js";

/** How SFT's early-stopping split holds examples out. */
export const HeldOutSplitConfig = z
  .object({
    share: z.number().min(0).lt(1).default(0.2).describe("Share of examples (or of tasks) held out (0 = none)."),
    seed: z.number().int().default(0).describe("Seed of the split's shuffle."),
    by: z
      .enum(["example", "task"])
      .default("example")
      .describe(
        "example: a random share of the examples; task: every example of a random share of the tasks, so the " +
          "held-out log-likelihood is read on tasks the trained examples never saw, as the held-out suite is.",
      ),
  })
  .strict();
export type HeldOutSplitConfigInput = z.input<typeof HeldOutSplitConfig>;

/**
 * The split of n examples into held-out and training indices (one seeded shuffle, rng = createRng(seed)):
 * - by "example": Fisher–Yates over 0 … n−1; held = the first h of the shuffle, h = min(n − 1, round(n · share))
 *   (h = 0 when n ≤ 1); train = the rest, in shuffled order.
 * - by "task": Fisher–Yates over the G distinct groups (in order of first appearance); held = every example of the
 *   first k groups, k = min(G − 1, round(G · share)) (k = 0 when G ≤ 1); both sides keep the examples' order.
 * `groups[i]` is example i's task id (required by "task"). Pure.
 */
export function heldOutSplit(
  n: number,
  cfgIn: HeldOutSplitConfigInput = {},
  groups?: readonly string[],
): { held: number[]; train: number[] } {
  const cfg = HeldOutSplitConfig.parse(cfgIn);
  const rng = createRng(cfg.seed);
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  if (cfg.by === "example") {
    const order = shuffle(Array.from({ length: n }, (_, i) => i));
    const h = n > 1 ? Math.min(n - 1, Math.round(n * cfg.share)) : 0;
    return { held: order.slice(0, h), train: order.slice(h) };
  }
  if (!groups || groups.length !== n) throw new RangeError(`a split by task needs one task id per example (${n})`);
  const ids = shuffle([...new Set(groups)]);
  const k = ids.length > 1 ? Math.min(ids.length - 1, Math.round(ids.length * cfg.share)) : 0;
  const heldIds = new Set(ids.slice(0, k));
  const idx = Array.from({ length: n }, (_, i) => i);
  return { held: idx.filter((i) => heldIds.has(groups[i]!)), train: idx.filter((i) => !heldIds.has(groups[i]!)) };
}

/**
 * K folds of n examples for cross-validated early stopping (one seeded shuffle, the same as heldOutSplit's): the
 * units (examples, or with by "task" the distinct groups in order of first appearance) are shuffled by Fisher–Yates
 * with rng = createRng(seed), and unit j of the shuffle goes to fold j mod K. Returns each fold's example indices in
 * the examples' order; K is capped at the number of units (every fold non-empty). Pure.
 */
export function kFolds(
  n: number,
  folds: number,
  cfgIn: Omit<HeldOutSplitConfigInput, "share"> = {},
  groups?: readonly string[],
): number[][] {
  const cfg = HeldOutSplitConfig.parse(cfgIn);
  if (!Number.isInteger(folds) || folds < 2) throw new RangeError(`folds must be an integer ≥ 2 (got ${folds})`);
  if (cfg.by === "task" && (!groups || groups.length !== n))
    throw new RangeError(`a split by task needs one task id per example (${n})`);
  const unitOf = (i: number) => (cfg.by === "task" ? groups![i]! : String(i));
  const units = [...new Set(Array.from({ length: n }, (_, i) => unitOf(i)))];
  const rng = createRng(cfg.seed);
  for (let i = units.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [units[i], units[j]] = [units[j]!, units[i]!];
  }
  const k = Math.min(folds, units.length);
  const foldOf = new Map(units.map((u, j) => [u, j % k]));
  const out: number[][] = Array.from({ length: k }, () => []);
  for (let i = 0; i < n; i++) out[foldOf.get(unitOf(i))!]!.push(i);
  return out;
}
