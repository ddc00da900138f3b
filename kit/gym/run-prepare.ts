import { mkdirSync } from "node:fs";
import { PrepareError } from "./errors.js";
import { runHarness } from "./python.js";

/**
 * Run a package's prepare(raw, public, private) with /usr/bin/python3; throws PrepareError naming the file.
 * public/ and private/ exist before the call: the paper's published packages write into them without
 * creating them (the harness does).
 */
export async function runPrepare(prepareFile: string, raw: string, publicDir: string, privateDir: string): Promise<void> {
  mkdirSync(publicDir, { recursive: true });
  mkdirSync(privateDir, { recursive: true });
  const r = await runHarness<{ ok: boolean; message?: string; traceback?: string }>("run_prepare.py", [prepareFile, raw, publicDir, privateDir]);
  if (!r.ok) {
    throw new PrepareError(
      `${prepareFile} raised ${r.message}${/Fix:/.test(r.message ?? "") ? "" : ". Fix: correct the script or its raw data and rebuild"}`,
      prepareFile,
    );
  }
}
