import { createRng } from "../util/index.js";
import { percentile } from "./mean-std.js";
import { PairedBootstrapConfig, type PairedInterval } from "./paired-bootstrap.js";

/**
 * Two-stage (hierarchical) percentile bootstrap of a mean over tasks whose figures are themselves estimated from a
 * few draws each (pure, seeded):
 *
 *   estimate = (1/T) Σ_t f(x_t),  x_t = task t's draws (for a generation difference: its paired draws);
 *   each of R resamples draws T tasks with replacement, then each drawn task's n_t draws with replacement, and
 *   takes the mean of f over them; the interval is the (1 − level)/2 and (1 + level)/2 percentiles.
 *
 * pairedBootstrap resamples tasks only, so it reads the draw noise from the spread of the task figures alone: a task
 * whose figure is noisy but landed near the mean narrows it. Resampling the draws too widens the interval by that
 * noise; it counts the draw noise a little more than once (Davison & Hinkley 1997, §3.8), so it errs wide. f also
 * gets the task's index in `tasks` (e.g. to read its metric direction). Tasks without draws are left out; null when
 * none has any.
 */
export function twoStageBootstrap<T>(
  tasks: readonly (readonly T[])[],
  f: (draws: readonly T[], task: number) => number,
  config: Partial<PairedBootstrapConfig> = {},
): PairedInterval | null {
  const c = PairedBootstrapConfig.parse(config);
  const xs = tasks.flatMap((t, i) => (t.length > 0 ? [{ t, i }] : []));
  const n = xs.length;
  if (n === 0) return null;
  const point = xs.map(({ t, i }) => f(t, i));
  const rng = createRng(c.seed);
  const means: number[] = [];
  for (let r = 0; r < c.resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const { t, i: task } = xs[rng.int(n)]!;
      s += f(
        Array.from({ length: t.length }, () => t[rng.int(t.length)]!),
        task,
      );
    }
    means.push(s / n);
  }
  const tail = ((1 - c.level) / 2) * 100;
  return {
    n,
    mean: point.reduce((s, x) => s + x, 0) / n,
    lo: percentile(means, tail),
    hi: percentile(means, 100 - tail),
    wins: point.filter((x) => x > 0).length,
    losses: point.filter((x) => x < 0).length,
    ties: point.filter((x) => x === 0).length,
  };
}
