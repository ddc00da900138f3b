import { createHash } from "node:crypto";
import { z } from "zod";
import type { Modality, TaskType } from "../types.js";

/**
 * The corpus's suites (issue 27), in two pure, deterministic steps:
 *
 * mergeStudies — which candidates are the same underlying data (the same data shipped by two packages, or one
 * study's tables split in two):
 *   1. A column signature (name-free: count, sum, level counts; TableProfile.signatures) is trivial at a row count
 *      when more than `trivialCarriers` items of that row count carry it (a row index, a 0/1 flag, a constant).
 *   2. Two items of the same row count sharing >= `minSharedSignatures` non-trivial signatures are the same study;
 *      so are two items whose manifest study is the same. Groups are closed under both (union-find).
 *   3. The group's key is the manifest's study: the smallest study an item states that differs from its own id,
 *      else the smallest item id.
 *
 * assignSuites — train and heldout, disjoint by study:
 *   1. A study is one unit: all its tasks go to one suite. Its stratum is the (modality, taskType) most of its
 *      tasks have (ties: the first in key order).
 *   2. A study equal to a core (built-in) task id is train-only, and takes no part in step 3.
 *   3. In each stratum the studies are ordered by sha256(study + "\0" + seed) and the first
 *      k = min(n − 1, round(heldoutShare · n)) go to heldout (half rounds up): a stratum of one study stays in
 *      train, and every stratum with a heldout study keeps one in train.
 *   4. Every modality of heldout must be in train: for a heldout modality train lacks (a study of mixed
 *      modalities), the heldout study carrying it that comes first in hash order moves to train, until none lacks.
 *   5. The heldout minimum (tasks) is reported met or not; disjointness is never broken to meet it.
 */
export const SuiteConfig = z
  .object({
    heldoutShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.25)
      .describe("Share of each (modality, taskType) stratum's studies sent to heldout (rounded half up)."),
    seed: z.string().default("openmle-corpus-1").describe("Salt of the study order: sha256(study + '\\0' + seed)."),
    heldoutMinimum: z.number().int().min(0).default(25).describe("Heldout tasks wanted; reported as met or not."),
  })
  .strict();
export type SuiteConfig = z.infer<typeof SuiteConfig>;
export type SuiteConfigInput = z.input<typeof SuiteConfig>;

export const MergeConfig = z
  .object({
    minSharedSignatures: z
      .number()
      .int()
      .min(1)
      .default(2)
      .describe("Non-trivial column signatures two tables of one row count must share to be one study."),
    trivialCarriers: z
      .number()
      .int()
      .min(1)
      .default(4)
      .describe("A signature carried by more than this many items of one row count is trivial (an index, a flag)."),
  })
  .strict();
export type MergeConfig = z.infer<typeof MergeConfig>;

export interface StudyItem {
  readonly id: string;
  /** The manifest's study (the candidate id when it states none). */
  readonly study: string;
  readonly nRows: number;
  readonly signatures: readonly string[];
}

/** Union-find over indices with path halving; the root is the smallest index (deterministic). */
function unionFind(n: number) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  return { find, union };
}

/** Map item id → the study key of its group (rules above). Independent of input order. */
export function mergeStudies(
  items: readonly StudyItem[],
  config: z.input<typeof MergeConfig> = {},
): Map<string, string> {
  const cfg = MergeConfig.parse(config);
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const uf = unionFind(sorted.length);
  // Carriers of each signature at each row count.
  const carriers = new Map<string, number[]>();
  sorted.forEach((it, i) => {
    for (const s of new Set(it.signatures)) {
      const key = `${it.nRows}\0${s}`;
      carriers.set(key, [...(carriers.get(key) ?? []), i]);
    }
  });
  const shared = new Map<string, number>();
  for (const idx of carriers.values()) {
    if (idx.length < 2 || idx.length > cfg.trivialCarriers) continue;
    for (let a = 0; a < idx.length; a++)
      for (let b = a + 1; b < idx.length; b++) {
        const pair = `${idx[a]},${idx[b]}`;
        const k = (shared.get(pair) ?? 0) + 1;
        shared.set(pair, k);
        if (k === cfg.minSharedSignatures) uf.union(idx[a]!, idx[b]!);
      }
  }
  const byStudy = new Map<string, number>();
  sorted.forEach((it, i) => (byStudy.has(it.study) ? uf.union(byStudy.get(it.study)!, i) : byStudy.set(it.study, i)));
  const groups = new Map<number, StudyItem[]>();
  sorted.forEach((it, i) => groups.set(uf.find(i), [...(groups.get(uf.find(i)) ?? []), it]));
  const out = new Map<string, string>();
  for (const members of groups.values()) {
    const stated = members
      .filter((m) => m.study !== m.id)
      .map((m) => m.study)
      .sort();
    const key = stated[0] ?? members.map((m) => m.id).sort()[0]!;
    for (const m of members) out.set(m.id, key);
  }
  return out;
}

export type SuiteName = "train" | "heldout";

export interface SuiteTask {
  readonly id: string;
  readonly study: string;
  readonly modality: Modality;
  readonly taskType: TaskType;
}

export interface SuiteAssignment {
  /** Task id → suite, for every task given. */
  readonly suites: Map<string, SuiteName>;
  readonly train: number;
  readonly heldout: number;
  readonly heldoutMinimum: { readonly wanted: number; readonly met: boolean };
  /** Studies kept in train because they equal a core task id. */
  readonly coreStudies: readonly string[];
  /** Studies step 4 moved from heldout to train so that train has every heldout modality. */
  readonly movedForCoverage: readonly string[];
}

const studyHash = (study: string, seed: string) => createHash("sha256").update(`${study}\0${seed}`).digest("hex");
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Train and heldout by study (rules above). Independent of input order. */
export function assignSuites(
  tasks: readonly SuiteTask[],
  config: SuiteConfigInput = {},
  coreStudies: readonly string[] = [],
): SuiteAssignment {
  const cfg = SuiteConfig.parse(config);
  const core = new Set(coreStudies);
  const byStudy = new Map<string, SuiteTask[]>();
  for (const t of [...tasks].sort((a, b) => cmp(a.id, b.id)))
    byStudy.set(t.study, [...(byStudy.get(t.study) ?? []), t]);
  const hash = new Map([...byStudy.keys()].map((s) => [s, studyHash(s, cfg.seed)]));
  const byHash = (a: string, b: string) => cmp(hash.get(a)!, hash.get(b)!) || cmp(a, b);

  // 1-3. Each study's stratum; heldout picks per stratum in hash order.
  const strata = new Map<string, string[]>();
  for (const [study, ts] of byStudy) {
    if (core.has(study)) continue;
    const counts = new Map<string, number>();
    for (const t of ts) counts.set(`${t.modality}/${t.taskType}`, (counts.get(`${t.modality}/${t.taskType}`) ?? 0) + 1);
    const stratum = [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))[0]![0];
    strata.set(stratum, [...(strata.get(stratum) ?? []), study]);
  }
  const heldout = new Set<string>();
  for (const studies of strata.values()) {
    const n = studies.length;
    const k = Math.min(n - 1, Math.floor(cfg.heldoutShare * n + 0.5));
    for (const s of studies.sort(byHash).slice(0, Math.max(0, k))) heldout.add(s);
  }

  // 4. Every heldout modality in train.
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

  // 5. Every task follows its study.
  const suites = new Map<string, SuiteName>();
  for (const [study, ts] of byStudy) for (const t of ts) suites.set(t.id, heldout.has(study) ? "heldout" : "train");
  const nHeld = [...suites.values()].filter((s) => s === "heldout").length;
  return {
    suites,
    train: suites.size - nHeld,
    heldout: nHeld,
    heldoutMinimum: { wanted: cfg.heldoutMinimum, met: nHeld >= cfg.heldoutMinimum },
    coreStudies: [...byStudy.keys()].filter((s) => core.has(s)).sort(cmp),
    movedForCoverage: moved,
  };
}
