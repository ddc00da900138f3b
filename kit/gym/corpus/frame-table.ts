// A user's own table framed as the corpus frames its candidates (issue 61): given the table and the target, the
// framing rules (framing.ts) choose the metric, split, dropped columns, modality and id column; each choice comes
// back with its reason, and every one can be overridden. The table is profiled in the jail, like a corpus export.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join, resolve } from "node:path";
import { z } from "zod";
import { TaskSpecError } from "../errors.js";
import { pythonHelper, PYTHON } from "../python.js";
import { SplitSpec, TaskSpec, type TaskSpecInput } from "../task-spec.js";
import { runCorpusScript } from "./corpus-jail.js";
import { fnv1a, frameCandidate, FramingConfig, slug } from "./framing.js";
import { framingChoices, type FramingChoice } from "./framing-reasons.js";
import { pythonDir } from "./source-paths.js";
import type { Candidate, FramingHints, TableProfile } from "./types.js";

/** What to frame, and the overrides of the rules' choices (each optional: the rules choose). */
export const TableFraming = z
  .object({
    /** The raw table: a CSV, a JSON array of records or JSONL. */
    table: z.string(),
    /** The column to predict. */
    target: z.string().min(1),
    /** The task id; default `<file name>-<target>`, as the corpus names its tasks. */
    id: TaskSpec.shape.id.optional(),
    /** What the data is, one line (the description's first sentence); default: the file name. */
    description: z.string().optional(),
    metric: z.string().optional(),
    modality: TaskSpec.shape.modality.unwrap().optional(),
    /** Columns to drop besides the rules' (identifiers, copies of the target). */
    drop: z.array(z.string()).default([]),
    /** Columns the rules would drop that stay features. */
    keep: z.array(z.string()).default([]),
    split: z
      .object({
        kind: SplitSpec.shape.kind.unwrap().optional(),
        timeColumn: z.string().optional(),
        groupColumn: z.string().optional(),
      })
      .strict()
      .default({}),
    testSize: z.number().gt(0).lt(1).optional(),
    /** A column of the table, unique per row, used as the id instead of generated ids. */
    idColumn: z.string().optional(),
    /** Rows above which a deterministic subsample is taken (the corpus' 4000 by default). */
    maxRows: z.number().int().positive().optional(),
    /** Profile limits in the jail. */
    timeoutS: z.number().positive().default(120),
    memoryMb: z.number().int().positive().default(4096),
  })
  .strict();
export type TableFramingInput = z.input<typeof TableFraming>;

export interface FramedTable {
  /** The buildTask spec (table as given, resolved). */
  readonly spec: TaskSpecInput;
  readonly choices: FramingChoice[];
  readonly profile: TableProfile;
}

/**
 * Frame a user's table:
 * 1. check the file (TaskSpecError with the fix);
 * 2. profile it in the jail (raw_profile.py: the corpus profile, JSON/JSONL read as prepare.py reads them);
 * 3. frame it with the corpus rules, the target and the overrides given as hints;
 * 4. apply what the rules take no hint for (keep, idColumn, id, description) and explain every choice.
 */
export async function frameTable(input: TableFramingInput): Promise<FramedTable> {
  const o = TableFraming.parse(input);
  // 1. the file
  const table = resolve(o.table);
  if (!existsSync(table) || !statSync(table).isFile())
    throw new TaskSpecError(
      `raw table ${table} does not exist. Fix: pass the path of a CSV, JSON or JSONL file.`,
      table,
    );
  const ext = extname(table).toLowerCase();
  if (![".csv", ".json", ".jsonl"].includes(ext))
    throw new TaskSpecError(`raw table ${table} is not .csv, .json or .jsonl. Fix: convert it to one of them.`, table);
  const stem = slug(basename(table, extname(table)));
  // 2. the profile
  const out = mkdtempSync(join(tmpdir(), "openmle-frame-"));
  let profile: TableProfile;
  try {
    await runCorpusScript({
      what: `raw_profile.py ${basename(table)}`,
      candidate: stem,
      command: [
        PYTHON,
        pythonHelper("raw_profile.py"),
        table,
        out,
        JSON.stringify({ fileColumn: null, corrMaxColumns: 100 }),
      ],
      mounts: [{ path: pythonDir() }, { path: table }, { path: out, writable: true }],
      timeoutS: o.timeoutS,
      memoryMb: o.memoryMb,
    });
    profile = JSON.parse(readFileSync(join(out, "profile.json"), "utf8")) as TableProfile;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const names = profile.columns.map((c) => c.name);
  for (const [what, name] of [
    ["target", o.target],
    ["time column", o.split.timeColumn],
    ["group column", o.split.groupColumn],
    ["id column", o.idColumn],
    ...o.drop.map((d) => ["dropped column", d]),
    ...o.keep.map((d) => ["kept column", d]),
  ] as const)
    if (name !== undefined && !names.includes(name))
      throw new TaskSpecError(
        `${what} ${JSON.stringify(name)} is not a column of ${basename(table)}. Fix: pick one of ${names.join(", ")}.`,
        table,
      );
  // 3. the rules, with the overrides as hints
  const hints: FramingHints = {
    targets: [o.target],
    ...(o.metric ? { metric: o.metric } : {}),
    ...(o.modality ? { modality: o.modality } : {}),
    ...(o.drop.length ? { drop: o.drop } : {}),
    ...(Object.keys(o.split).length ? { split: o.split } : {}),
  };
  const candidate: Candidate = {
    id: stem,
    source: "debian", // not read by the rules; the spec's source is set below
    package: basename(table),
    version: "",
    object: "",
    licence: "",
    description: o.description ?? `The table ${basename(table)}`,
    hints,
  };
  const cfg: Partial<FramingConfig> = {
    ...(o.testSize !== undefined ? { testSize: o.testSize } : {}),
    ...(o.maxRows !== undefined ? { maxRows: o.maxRows } : {}),
  };
  const r = frameCandidate(candidate, profile, cfg);
  if ("rejected" in r) throw new TaskSpecError(`${basename(table)} cannot be framed: ${r.rejected}.`, table);
  const f = r.framings[0]!;
  // 4. what the rules take no hint for
  const id = o.id ?? f.taskId;
  const unkeep = new Set([...o.keep, ...(o.idColumn ? [o.idColumn] : [])]);
  const split = { ...f.spec.split!, seed: fnv1a(id) % 2 ** 31 }; // rule 5's seed, of the final id
  const spec: TaskSpecInput = {
    ...f.spec,
    id,
    table,
    drop: (f.spec.drop ?? []).filter((d) => !unkeep.has(d)),
    split,
    ...(o.idColumn ? { idColumn: o.idColumn } : {}),
    source: basename(table),
  };
  const choices = framingChoices({ ...f, spec }, profile, hints, cfg).map((c) =>
    c.field === "idColumn" && o.idColumn ? { ...c, why: "given" } : c,
  );
  for (const k of o.keep)
    if (f.spec.drop?.includes(k)) choices.push({ field: "drop", value: `${k} (kept)`, why: "given" });
  return { spec, choices, profile };
}
