/**
 * How a program's interpreter starts (issue 28):
 * - `cold`: a fresh `/usr/bin/python3` under its own bubblewrap sandbox per program (the default);
 * - `warm`: forked from a per-task zygote that has already imported numpy, pandas and scikit-learn,
 *   each child in namespaces of its own (kit/sandbox/README.md, "Warm start"). Where warm start cannot
 *   be had (Docker, no bubblewrap, an unsupported architecture) the executor runs cold and says so once.
 * Records are the same either way; only wallS, cpuS and peakMemMb differ, as between any two runs.
 */
export const SANDBOX_STARTS = ["cold", "warm"] as const;
export type SandboxStart = (typeof SANDBOX_STARTS)[number];
