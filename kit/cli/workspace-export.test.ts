// `openmle workspace export`: the file's extension (or --format) decides Parquet or CSV; a name that says neither is
// refused in one line, so a .csv never holds Parquet.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { openWorkspace } from "../store/index.js";

const main = join(import.meta.dirname, "main.ts");
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const dir = mkdtempSync(join(tmpdir(), "openmle-export-"));
const ws = join(dir, "ws");
beforeAll(async () => {
  const w = await openWorkspace(ws);
  await w.append("runs", [{ run_id: "r1", task_id: "cars", harness: "openmle", seed: 1, config_hash: "h", status: "finished" }]);
  w.close();
});

test("a .csv is CSV with a header, a .parquet is Parquet, --format overrides, another name is refused", () => {
  const csv = cli("workspace", "export", ws, "SELECT run_id, seed FROM runs", join(dir, "runs.csv"));
  expect(csv.code, csv.err).toBe(0);
  expect(readFileSync(join(dir, "runs.csv"), "utf8")).toBe("run_id,seed\nr1,1\n");
  expect(cli("workspace", "export", ws, "runs", join(dir, "runs.parquet")).code).toBe(0);
  expect(readFileSync(join(dir, "runs.parquet")).subarray(0, 4).toString("latin1")).toBe("PAR1");
  expect(cli("workspace", "export", ws, "runs", join(dir, "runs.txt"), "--format", "csv").code).toBe(0);
  expect(readFileSync(join(dir, "runs.txt"), "utf8")).toMatch(/^run_id,/);
  const bad = cli("workspace", "export", ws, "runs", join(dir, "runs.dat"));
  expect([bad.code, bad.err.trimEnd()]).toEqual([1, `openmle: ${join(dir, "runs.dat")}: name the file .parquet or .csv, or pass --format parquet|csv`]);
  expect(existsSync(join(dir, "runs.dat"))).toBe(false);
});
