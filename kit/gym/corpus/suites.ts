import { createHash } from "node:crypto";
import { z } from "zod";
import type { Modality, TaskType } from "../types.js";

/**
 * The corpus's suites (issues 27 and 60), pure and deterministic.
 *
 * The studies come first, by content (study-merge.ts mergeStudiesByContent); then assignSuites:
 *
 * assignSuites — train, dev and confirm (issue 60), disjoint by study:
 *   1. A study is one unit: all its tasks go to one suite. Its stratum is the (modality, taskType) most of its
 *      tasks have (ties: the first in key order).
 *   2. A study equal to a core (built-in) task id is train-only, and takes no part in steps 4 and 6.
 *   3. A study holding a task of `pinnedTrain` (e.g. the tasks a recorded checkpoint was trained on) is train-only:
 *      it counts in its stratum's n but is never drawn, so a checkpoint is never evaluated on its own training data.
 *   4. Held out: in each stratum the n non-core studies are ordered by sha256(study + "\0" + seed), and the first
 *      k = min(n − 1, round(heldoutShare · n)) that are not pinned are held out (half rounds up; fewer when the
 *      pinned leave fewer): a stratum of one study stays in train, and every stratum with a held-out study keeps
 *      one in train. With no pins these are exactly the studies the `heldout` suite held before issue 60.
 *   5. Every held-out modality must be in train: for a held-out modality train lacks (a study of mixed
 *      modalities), the held-out study carrying it that comes first in hash order moves to train, until none lacks.
 *   6. Dev and confirm: in each stratum the held-out studies are ordered by sha256(study + "\0" + seed + "\0confirm")
 *      (a second order), the first c = round(confirmShare · h) of its h go to confirm (half up), the rest to dev.
 *   7. Every task follows its study. The held-out minimum (dev + confirm tasks) and the confirm minimum (tasks) are
 *      reported met or not; disjointness is never broken to meet them.
 * Steps 4 and 6 depend only on the studies and the seed: the result does not depend on the input's order.
 */
export const SuiteConfig = z
  .object({
    heldoutShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.25)
      .describe("Share of each (modality, taskType) stratum's studies held out of train (dev + confirm), half up."),
    confirmShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe("Share of each stratum's held-out studies sealed in confirm (rounded half up); the rest are dev."),
    seed: z.string().default("openmle-corpus-1").describe("Salt of the study order: sha256(study + '\\0' + seed)."),
    heldoutMinimum: z
      .number()
      .int()
      .min(0)
      .default(25)
      .describe("Held-out (dev + confirm) tasks wanted; reported as met or not."),
    confirmMinimum: z.number().int().min(0).default(40).describe("Confirm tasks wanted; reported as met or not."),
    pinnedTrain: z
      .array(z.string())
      .default([])
      .describe("Task ids whose studies stay in train (a recorded checkpoint's training tasks, say); none by default."),
  })
  .strict();
export type SuiteConfig = z.infer<typeof SuiteConfig>;
export type SuiteConfigInput = z.input<typeof SuiteConfig>;

/** The corpus's suites: train, dev (diagnostics allowed) and confirm (sealed: registered experiments only). */
export const SUITE_NAMES = ["train", "dev", "confirm"] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

export interface SuiteTask {
  readonly id: string;
  readonly study: string;
  readonly modality: Modality;
  readonly taskType: TaskType;
}

/** A count per suite. */
export type SuiteCount = { readonly [S in SuiteName]: number };

/** Tasks per suite of one (modality, taskType), each task counted by its own modality and type. */
export interface StratumCount extends SuiteCount {
  readonly modality: Modality;
  readonly taskType: TaskType;
}

export interface SuiteAssignment {
  /** Task id → suite, for every task given. */
  readonly suites: Map<string, SuiteName>;
  /** Tasks per suite. */
  readonly tasks: SuiteCount;
  /** Studies per suite. */
  readonly studies: SuiteCount;
  /** Tasks per suite and (modality, taskType), in key order: the balance of the suites. */
  readonly strata: readonly StratumCount[];
  /** Held-out tasks (dev + confirm) wanted, and whether there are that many. */
  readonly heldoutMinimum: { readonly wanted: number; readonly met: boolean };
  readonly confirmMinimum: { readonly wanted: number; readonly met: boolean };
  /** Studies kept in train because they equal a core task id. */
  readonly coreStudies: readonly string[];
  /** Studies kept in train because they hold a task of `pinnedTrain`. */
  readonly pinnedStudies: readonly string[];
  /** Studies step 5 moved from held-out to train so that train has every held-out modality. */
  readonly movedForCoverage: readonly string[];
}

const studyHash = (study: string, seed: string) => createHash("sha256").update(`${study}\0${seed}`).digest("hex");
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const halfUp = (x: number) => Math.floor(x + 0.5);
const zero = (): { -readonly [S in SuiteName]: number } => ({ train: 0, dev: 0, confirm: 0 });

/** Tasks per suite, in all and per (modality, taskType) in key order (each task by its own modality and type). */
export function suiteCounts(tasks: readonly (Omit<SuiteTask, "study"> & { readonly suite: SuiteName })[]): {
  readonly tasks: SuiteCount;
  readonly strata: readonly StratumCount[];
} {
  const all = zero();
  const strata = new Map<string, StratumCount & { -readonly [S in SuiteName]: number }>();
  for (const t of tasks) {
    const key = `${t.modality}/${t.taskType}`;
    if (!strata.has(key)) strata.set(key, { modality: t.modality, taskType: t.taskType, ...zero() });
    strata.get(key)![t.suite]++;
    all[t.suite]++;
  }
  return { tasks: all, strata: [...strata].sort((a, b) => cmp(a[0], b[0])).map(([, c]) => c) };
}

/** Train, dev and confirm by study (rules above). Independent of input order. */
export function assignSuites(
  tasks: readonly SuiteTask[],
  config: SuiteConfigInput = {},
  coreStudies: readonly string[] = [],
): SuiteAssignment {
  const cfg = SuiteConfig.parse(config);
  const core = new Set(coreStudies);
  const pinnedIds = new Set(cfg.pinnedTrain);
  const byStudy = new Map<string, SuiteTask[]>();
  for (const t of [...tasks].sort((a, b) => cmp(a.id, b.id)))
    byStudy.set(t.study, [...(byStudy.get(t.study) ?? []), t]);
  const order = (salt: string) => {
    const hash = new Map([...byStudy.keys()].map((s) => [s, studyHash(s, salt)]));
    return (a: string, b: string) => cmp(hash.get(a)!, hash.get(b)!) || cmp(a, b);
  };
  const byHash = order(cfg.seed);

  // 1-3. Each study's stratum; core studies out of the strata, pinned ones in them but never drawn.
  const pinned = new Set(
    [...byStudy].filter(([s, ts]) => !core.has(s) && ts.some((t) => pinnedIds.has(t.id))).map(([s]) => s),
  );
  const strata = new Map<string, string[]>();
  for (const [study, ts] of byStudy) {
    if (core.has(study)) continue;
    const counts = new Map<string, number>();
    for (const t of ts) counts.set(`${t.modality}/${t.taskType}`, (counts.get(`${t.modality}/${t.taskType}`) ?? 0) + 1);
    const stratum = [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))[0]![0];
    strata.set(stratum, [...(strata.get(stratum) ?? []), study]);
  }
  // 4. The held-out draw per stratum in hash order.
  const heldout = new Set<string>();
  for (const studies of strata.values()) {
    const n = studies.length;
    const k = Math.min(n - 1, halfUp(cfg.heldoutShare * n));
    const drawable = studies.filter((s) => !pinned.has(s)).sort(byHash);
    for (const s of drawable.slice(0, Math.max(0, k))) heldout.add(s);
  }

  // 5. Every held-out modality in train.
  const moved: string[] = [];
  const modalities = (inHeldout: boolean) =>
    new Set([...byStudy].filter(([s]) => heldout.has(s) === inHeldout).flatMap(([, ts]) => ts.map((t) => t.modality)));
  for (;;) {
    const train = modalities(false);
    const lacking = [...modalities(true)].filter((m) => !train.has(m)).sort(cmp)[0];
    if (lacking === undefined) break;
    const study = [...heldout].filter((s) => byStudy.get(s)!.some((t) => t.modality === lacking)).sort(byHash)[0]!;
    heldout.delete(study);
    moved.push(study);
  }

  // 6. Confirm and dev per stratum, in the second hash order.
  const confirm = new Set<string>();
  const byConfirmHash = order(`${cfg.seed}\0confirm`);
  for (const studies of strata.values()) {
    const held = studies.filter((s) => heldout.has(s)).sort(byConfirmHash);
    for (const s of held.slice(0, halfUp(cfg.confirmShare * held.length))) confirm.add(s);
  }

  // 7. Every task follows its study; the counts.
  const suiteOf = (study: string): SuiteName => (confirm.has(study) ? "confirm" : heldout.has(study) ? "dev" : "train");
  const suites = new Map<string, SuiteName>();
  const studyCount = zero();
  for (const [study, ts] of byStudy) {
    studyCount[suiteOf(study)]++;
    for (const t of ts) suites.set(t.id, suiteOf(study));
  }
  const counts = suiteCounts([...byStudy.values()].flat().map((t) => ({ ...t, suite: suites.get(t.id)! })));
  const held = counts.tasks.dev + counts.tasks.confirm;
  return {
    suites,
    ...counts,
    studies: studyCount,
    heldoutMinimum: { wanted: cfg.heldoutMinimum, met: held >= cfg.heldoutMinimum },
    confirmMinimum: { wanted: cfg.confirmMinimum, met: counts.tasks.confirm >= cfg.confirmMinimum },
    coreStudies: [...byStudy.keys()].filter((s) => core.has(s)).sort(cmp),
    pinnedStudies: [...pinned].sort(cmp),
    movedForCoverage: moved,
  };
}
