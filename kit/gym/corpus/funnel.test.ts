import { describe, expect, it } from "vitest";
import { funnelTable, quantile, reasonKey } from "./funnel.js";
import { formatBytes, funnelText } from "./funnel-text.js";
import { PAPER_FUNNEL } from "./paper-funnel.js";
import type { CorpusTask, StageRecord } from "./types.js";

const rec = (candidate: string, stage: StageRecord["stage"], status: StageRecord["status"], reason = "", taskId?: string): StageRecord => ({
  buildId: "b1", candidate, stage, status, reason, ms: 1, ...(taskId ? { taskId } : {}),
});

// Four candidates: d fails export, c cannot be framed, a frames two tasks (a1 accepted, a2 constant target),
// b's one task times out in the build; the gate has no endpoint (skipped, a1 goes on).
const RECORDS: StageRecord[] = [
  rec("a", "export", "pass"), rec("b", "export", "pass"), rec("c", "export", "pass"),
  rec("d", "export", "fail", "R package not installed: r-cran-foo"),
  rec("a", "frame", "pass"), rec("b", "frame", "pass"), rec("c", "frame", "fail", "no target column (all constant)"),
  rec("a", "build", "pass", "", "a1"), rec("a", "build", "pass", "", "a2"),
  rec("b", "build", "fail", "prepare.py timed out after 60 s", "b1"),
  rec("a", "quality", "pass", "", "a1"), rec("a", "quality", "fail", "target is constant", "a2"),
  rec("a", "headroom", "pass", "normalised 0.41", "a1"),
  rec("a", "gate", "skip", "no endpoint configured", "a1"),
];

const task = (id: string, over: Partial<CorpusTask> & { h: number }): CorpusTask => ({
  id, candidate: id, study: id, source: "r", package: "r-cran-mass", modality: "tabular", taskType: "classification",
  metric: "accuracy", nRows: 100, packageBytes: 100, packageHash: "h", synthesised: false,
  headroom: { constant: 0.5, reference: 0.8, referenceModel: "gbm", normalised: over.h }, ...over,
});

const TASKS: CorpusTask[] = [
  task("t1", { study: "s1", packageBytes: 100, h: 0.1 }),
  task("t2", { study: "s1", packageBytes: 200, h: 0.5, taskType: "regression" }),
  task("t3", { study: "s2", packageBytes: 300, h: 0.9, modality: "text" }),
  task("t4", { study: "s3", packageBytes: 1000, h: 1.0, modality: "image", synthesised: true }),
];

describe("funnelTable: per stage", () => {
  const t = funnelTable(RECORDS, []);
  type Row = [string, string, number, number, number, number, number, number, number, number, { reason: string; count: number }[]];
  const rows: Row[] = [
    // stage, unit, entered, passed, failed, skipped, kept, keptShare, keptCandidates, candidateShare, reasons
    ["export", "candidates", 4, 3, 1, 0, 3, 0.75, 3, 0.75, [{ reason: "r package not installed", count: 1 }]],
    ["frame", "candidates", 3, 2, 1, 0, 2, 2 / 3, 2, 0.5, [{ reason: "no target column", count: 1 }]],
    ["build", "tasks", 3, 2, 1, 0, 2, 2 / 3, 1, 0.25, [{ reason: "prepare.py timed out after", count: 1 }]],
    ["quality", "tasks", 2, 1, 1, 0, 1, 0.5, 1, 0.25, [{ reason: "target is constant", count: 1 }]],
    ["headroom", "tasks", 1, 1, 0, 0, 1, 1, 1, 0.25, []],
    ["gate", "tasks", 1, 0, 0, 1, 1, 1, 1, 0.25, [{ reason: "no endpoint configured", count: 1 }]],
  ];
  it.each(rows)("%s", (stage, unit, entered, passed, failed, skipped, kept, keptShare, keptCandidates, candidateShare, reasons) => {
    const row = t.stages.find((s) => s.stage === stage)!;
    expect(row).toMatchObject({ unit, entered, passed, failed, skipped, kept, keptCandidates, reasons });
    expect(row.keptShare).toBeCloseTo(keptShare, 12);
    expect(row.candidateShare).toBeCloseTo(candidateShare, 12);
  });
  it("stages in FUNNEL_STAGES order; 4 distinct candidates", () => {
    expect(t.candidates).toBe(4);
    expect(t.stages.map((s) => s.stage)).toEqual(["export", "frame", "build", "quality", "headroom", "gate"]);
  });
  it("a stage nothing entered has null shares, not NaN", () => {
    const empty = funnelTable([], []);
    expect(empty.stages[0]).toMatchObject({ entered: 0, keptShare: null, candidateShare: null });
  });
});

describe("rejection reasons", () => {
  it.each([
    ["too few rows (45 < 100)", "too few rows"],
    ["Leakage: column 'id' predicts the target", "leakage"],
    ["constant baseline and reference within 0.01 of each other", "constant baseline and reference"],
    ["144 rows, fewer than the 150 a split needs", "N rows fewer than"],
    ["reference tabular-hgb 31.4 vs constant 30.52: -0.0289 of the way", "reference tabular-hgb N vs"],
    ["", "(no reason given)"],
    ["   ", "(no reason given)"],
  ])("reasonKey(%j) = %j", (reason, key) => expect(reasonKey(reason)).toBe(key));

  it("groups and counts, most frequent first, ties by key, at most topReasons", () => {
    const rs = ["too few rows (3)", "too few rows (9)", "b failed: x", "a failed: y", "target is constant"].map((r, i) =>
      rec(`c${i}`, "quality", "fail", r, `t${i}`),
    );
    expect(funnelTable(rs, [], { topReasons: 3 }).stages[3]!.reasons).toEqual([
      { reason: "too few rows", count: 2 },
      { reason: "a failed", count: 1 },
      { reason: "b failed", count: 1 },
    ]);
  });
});

describe("accepted tasks", () => {
  const a = funnelTable(RECORDS, TASKS).accepted;
  it("quantiles (type 7) by hand: bytes 100/200/300/1000, headroom 0.1/0.5/0.9/1.0", () => {
    expect(a.packageBytes).toEqual({ min: 100, q25: 175, median: 250, q75: 475, max: 1000 });
    expect(a.headroom!.q25).toBeCloseTo(0.4, 12);
    expect(a.headroom!.median).toBeCloseTo(0.7, 12);
    expect(a.headroom!.q75).toBeCloseTo(0.925, 12);
    expect(a.headroomBins).toEqual([1, 0, 1, 0, 2]);
    expect(quantile([5], 0.5)).toBe(5);
  });
  it("mixes, studies, synthesised, missing modalities", () => {
    expect(a).toMatchObject({ tasks: 4, candidates: 4, studies: 3, synthesised: 1 });
    expect(a.modalities).toEqual([
      { key: "tabular", count: 2, share: 0.5 },
      { key: "image", count: 1, share: 0.25 },
      { key: "text", count: 1, share: 0.25 },
    ]);
    expect(a.taskTypes).toEqual([
      { key: "classification", count: 3, share: 0.75 },
      { key: "regression", count: 1, share: 0.25 },
    ]);
    expect(a.missingModalities).toEqual(["time_series", "audio", "multimodal"]);
  });
  it("no task: null quantiles, every modality missing", () => {
    const e = funnelTable([], []).accepted;
    expect(e).toMatchObject({ tasks: 0, packageBytes: null, headroom: null, headroomBins: [0, 0, 0, 0, 0] });
    expect(e.missingModalities).toHaveLength(6);
  });
});

describe("funnelText", () => {
  it("formats counts, shares and sizes beside the paper's, with no NaN and no JSON", () => {
    const text = funnelText(funnelTable(RECORDS, TASKS), "b1");
    expect(text).toMatch(/^corpus build b1: 4 candidates → 4 accepted tasks from 4 candidates \(3 distinct studies\)/);
    expect(text).toMatch(/^export +candidates +4 +3 +1 +0 +75\.0% +3 \(75\.0%\) +100\.0% competitions/m);
    expect(text).toMatch(/^quality +tasks +2 +1 +1 +0 +50\.0% +1 \(25\.0%\) +— \(kit only\)/m);
    expect(text).toContain("~11,000 → 3,972 (36.0%) → 2,839 (26.0%) → 2,240 (20.0%)");
    expect(text).toContain("build: prepare.py timed out after ×1");
    expect(text).toContain("no accepted task: time_series, audio, multimodal");
    expect(text).toContain("package size: min 100 B, q25 175 B, median 250 B, q75 475 B, max 1000 B");
    expect(text).not.toMatch(/NaN|undefined|\{/);
  });
  it("an empty build reads as dashes, not NaN", () => {
    const text = funnelText(funnelTable([], []), "none");
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
    expect(text).toContain("package size: —");
  });
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1536, "1.5 KiB"],
    [5 * 1024 ** 2, "5 MiB"],
    [3 * 1024 ** 3, "3 GiB"],
  ])("formatBytes(%d) = %s", (b, s) => expect(formatBytes(b)).toBe(s));
  it("the paper's counts are Fig. 3's", () => {
    expect(PAPER_FUNNEL.stages.map((s) => [s.count, s.share])).toEqual([[11000, 1], [3972, 0.36], [2839, 0.26], [2240, 0.2]]);
  });
});
