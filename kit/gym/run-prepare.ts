import { mkdirSync } from "node:fs";
import { PrepareError } from "./errors.js";
import { dirname } from "node:path";
import { runHarness } from "./package-harness.js";
import type { PackageStage } from "./errors.js";

/** How long prepare.py may run by default before it and its children are killed. */
export const PREPARE_TIMEOUT_MS = 300_000;

/**
 * Run a package's prepare(raw, public, private) in the package jail (package-harness.ts: its utils/ folder and
 * raw/ read-only, only public/ and private/ writable); throws PrepareError naming the file, PackageCodeError
 * when the jail stopped it, or PythonTimeoutError past `timeoutMs` (its whole process tree is killed then).
 * public/ and private/ exist before the call: the paper's published packages write into them without
 * creating them (the harness does).
 */
export async function runPrepare(
  prepareFile: string,
  raw: string,
  publicDir: string,
  privateDir: string,
  opts: { timeoutMs?: number; stage?: PackageStage } = {},
): Promise<void> {
  mkdirSync(publicDir, { recursive: true });
  mkdirSync(privateDir, { recursive: true });
  const r = await runHarness<{ ok: boolean; message?: string; traceback?: string }>(
    "run_prepare.py",
    [prepareFile, raw, publicDir, privateDir],
    {
      stage: opts.stage ?? "prepare",
      file: prepareFile,
      read: [dirname(prepareFile), raw],
      write: [publicDir, privateDir],
    },
    { timeoutMs: opts.timeoutMs ?? PREPARE_TIMEOUT_MS },
  );
  if (!r.ok) {
    throw new PrepareError(
      `${prepareFile} raised ${r.message}` +
        (/Fix:/.test(r.message ?? "") ? "" : ". Fix: correct the script or its raw data and rebuild"),
      prepareFile,
    );
  }
}
