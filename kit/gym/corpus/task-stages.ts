// Stages build .. gate of one framed task of the corpus (build-corpus.ts step 2).
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import type { LanguageModel } from "../../llm/index.js";
import { buildTask } from "../build-task.js";
import { checkTask } from "../check-task.js";
import { METRIC_CHECKS, type CheckResult } from "../check-result.js";
import { packageHash } from "../package-hash.js";
import { semanticGate } from "../semantic-gate.js";
import type { TaskPackage } from "../types.js";
import type { CorpusBuildConfig } from "./build-corpus.js";
import { HeadroomConfig, headroomVerdict, measureHeadroom } from "./headroom.js";
import type { corpusPaths } from "./paths.js";
import type { Candidate, CorpusTask, ExportedTable, Framing, FunnelStage, StageRecord } from "./types.js";

export type Rec = (stage: FunnelStage, status: StageRecord["status"], reason: string, ms: number) => void;

/** Stages build .. gate of one framed task; its CorpusTask when every stage passed (the gate may be skipped). */
export async function runTaskStages(
  c: Candidate,
  f: Framing,
  exported: ExportedTable,
  cfg: z.output<typeof CorpusBuildConfig>,
  paths: ReturnType<typeof corpusPaths>,
  model: LanguageModel | undefined,
  now: () => number,
  rec: Rec,
): Promise<Omit<CorpusTask, "study"> | null> {
  const out = join(paths.tasks, f.taskId);
  const reject = (stage: FunnelStage, reason: string, ms: number) => {
    rec(stage, "fail", reason, ms);
    rmSync(out, { recursive: true, force: true });
    return null;
  };
  let t = now();
  let pkg: TaskPackage;
  try {
    pkg = await buildTask(
      {
        ...f.spec,
        table: exported.table,
        ...(exported.filesDir ? { filesDir: exported.filesDir } : {}),
      } as Parameters<typeof buildTask>[0],
      { outDir: out, overwrite: true },
    );
  } catch (e) {
    return reject("build", (e as Error).message, now() - t);
  }
  const buildMs = now() - t;
  t = now();
  let checks: readonly CheckResult[];
  try {
    checks = (await checkTask(pkg, { determinism: cfg.determinism })).checks;
  } catch (e) {
    return reject("build", `the checks could not run: ${(e as Error).message}`, buildMs + now() - t);
  }
  const checkMs = now() - t;
  const metricNames = new Set<string>(METRIC_CHECKS);
  const failed = (xs: readonly CheckResult[]) => xs.filter((x) => x.status === "fail");
  const metricFail = failed(checks.filter((x) => metricNames.has(x.name)));
  if (metricFail.length) return reject("build", checkReason(metricFail), buildMs);
  rec("build", "pass", `${pkg.meta.nTrain} train / ${pkg.meta.nTest} test rows; metric verified`, buildMs);
  const qualityFail = failed(checks.filter((x) => !metricNames.has(x.name)));
  if (qualityFail.length) return reject("quality", checkReason(qualityFail), checkMs);
  rec("quality", "pass", `${checks.length} checks passed`, checkMs);
  t = now();
  const hcfg = HeadroomConfig.parse(cfg.headroom);
  let headroom;
  try {
    headroom = await measureHeadroom(pkg, hcfg);
  } catch (e) {
    return reject("headroom", (e as Error).message, now() - t);
  }
  const verdict = headroomVerdict(headroom, hcfg);
  if (!verdict.pass) return reject("headroom", verdict.reason, now() - t);
  rec("headroom", "pass", verdict.reason, now() - t);
  t = now();
  const review = await semanticGate(pkg, { model, metricValid: true });
  if (review.verdict === "skipped") rec("gate", "skip", review.reasons.join("; "), now() - t);
  else if (!review.accepted) return reject("gate", `${review.verdict}: ${review.reasons.join("; ")}`, now() - t);
  else rec("gate", "pass", review.verdict, now() - t);
  return {
    id: f.taskId,
    candidate: c.id,
    source: c.source,
    package: c.package,
    modality: pkg.meta.modality,
    taskType: pkg.meta.taskType,
    metric: pkg.meta.metric,
    nRows: (pkg.meta.nTrain ?? 0) + (pkg.meta.nTest ?? 0),
    packageBytes: treeBytes(out),
    packageHash: packageHash(out),
    headroom,
    synthesised: !!c.synthesised,
  };
}

function checkReason(failed: readonly CheckResult[]): string {
  return failed.map((x) => `${x.name}: ${x.message}`).join("; ");
}

export const oneLine = (s: string) => {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > 400 ? `${line.slice(0, 397)}...` : line;
};

export function treeBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? treeBytes(p) : statSync(p).size;
  }
  return n;
}
