import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TaskSpecInput } from "../task-spec.js";

/**
 * Issue 25's break 2: text that closes the `r'''…'''` literal the spec used to be pasted into, runs Python
 * that creates `marker`, and reopens a literal. The marker path is hex-encoded so the text holds no '/'
 * (it also serves as a file name).
 */
export function breakoutPayload(marker: string): string {
  const hex = Buffer.from(marker).toString("hex");
  return `x''' + str(__import__('os').system('touch ' + bytes.fromhex('${hex}').decode())) + r'''`;
}

export interface HostileSpecs {
  /** Specs with a payload in every string field that reaches prepare's config or the package's text. */
  readonly specs: readonly { readonly spec: TaskSpecInput; readonly outDir: string }[];
  /** Specs with a payload in a field validation forbids (id, metric, modality): each must be refused. */
  readonly refused: readonly TaskSpecInput[];
  /** Every marker a payload would create (none may exist after a build or a check). */
  readonly markers: readonly string[];
}

/**
 * Two specs with the payload in every string field (raw tables whose column names are payloads, so both
 * build): a binary roc_auc task split by group (table name, target, generated id column, drop, positive
 * class, group column, name, description, source, licence) and a regression split by time with asset
 * files (time column, file column, the files folder's name). Markers go under `dir`/markers.
 */
export function hostileSpecs(dir: string): HostileSpecs {
  const markDir = join(dir, "markers");
  mkdirSync(markDir, { recursive: true });
  const markers: string[] = [];
  const p = (field: string) => {
    const m = join(markDir, field);
    markers.push(m);
    return breakoutPayload(m);
  };
  const text = (tag: string) => ({
    name: p(`${tag}-name`),
    description: p(`${tag}-description`),
    source: p(`${tag}-source`),
    licence: p(`${tag}-licence`),
  });

  const [target, positive, group] = [p("a-target"), p("a-positive"), p("a-group")];
  const rowsA = Array.from({ length: 48 }, (_, i) => ({
    [target]: i % 2 ? positive : "plain",
    f: (i * 7) % 11,
    [group]: `g${i % 8}`,
  }));
  const tableA = join(dir, `${p("a-table")}.json`);
  writeFileSync(tableA, JSON.stringify(rowsA));
  const a: TaskSpecInput = {
    id: "hostile-a",
    table: tableA,
    target,
    idColumn: p("a-id"),
    drop: [p("a-drop"), "f2"],
    metric: "roc_auc",
    positiveClass: positive,
    split: { kind: "group", groupColumn: group, seed: 1 },
    ...text("a"),
  };

  const [y, time, file] = [p("b-target"), p("b-time"), p("b-file")];
  const files = join(dir, p("b-files"));
  mkdirSync(files, { recursive: true });
  const rowsB = Array.from({ length: 30 }, (_, i) => {
    writeFileSync(join(files, `f${i}.txt`), `item ${i}\n`);
    return { [y]: i * 1.5, [time]: 2000 + i, [file]: `f${i}.txt` };
  });
  const tableB = join(dir, "b.json");
  writeFileSync(tableB, JSON.stringify(rowsB));
  const b: TaskSpecInput = {
    id: "hostile-b",
    table: tableB,
    filesDir: files,
    fileColumn: file,
    target: y,
    metric: "rmse",
    split: { kind: "time", timeColumn: time },
    ...text("b"),
  };

  const refused: TaskSpecInput[] = [
    { ...a, id: p("r-id") },
    { ...a, metric: p("r-metric") },
    { ...a, modality: p("r-modality") as "tabular" },
  ];
  return {
    specs: [
      { spec: a, outDir: join(dir, "pkgs", "hostile-a") },
      { spec: b, outDir: join(dir, "pkgs", "hostile-b") },
    ],
    refused,
    markers,
  };
}
