import { closeSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it, vi } from "vitest";
import { registerWorkspace } from "../cli/workspace-cmd.js";
import { CorruptWorkspaceError, openWorkspace } from "./index.js";

// Issue 10 point 10: 16 KiB of garbage written into the middle of a database went undetected at open.
// DuckDB checks a block's checksum when it reads the block; opening reads only the headers and the
// catalog, so the garbage here (inside a block of the cards table's data) shows only once it is read.
async function corruptWorkspace(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "openmle-verify-")), "ws");
  const ws = await openWorkspace(dir);
  await ws.append("cards", Array.from({ length: 20_000 }, (_, i) => ({
    run_id: "r1", node_id: `n${i}`, operator: "draft", parents: [], generation_id: i, score: i / 7, method_family: `family-${i % 50}`,
  })));
  await ws.append("runs", [{ run_id: "r1", task_id: "t", seed: 1 }]);
  await ws.exec("CHECKPOINT");
  // The block holding the cards' node_id column, and where it lies in the file (after three 4 KiB headers).
  const [{ block }] = await ws.query<{ block: number }>("SELECT max(block_id) AS block FROM pragma_storage_info('cards') WHERE column_name = 'node_id' AND block_id >= 0");
  const [{ size }] = await ws.query<{ size: number }>("SELECT block_size AS size FROM pragma_database_size()");
  ws.close();
  const fd = openSync(join(dir, "openmle.duckdb"), "r+");
  writeSync(fd, Buffer.alloc(16 * 1024, 0x41), 0, 16 * 1024, 3 * 4096 + block * size + 1000);
  closeSync(fd);
  return dir;
}

describe("checksum verification of a workspace", () => {
  it("a plain open does not see garbage in a data block; verify, open { verify } and workspace check do", async () => {
    const dir = await corruptWorkspace();
    const plain = await openWorkspace(dir, { readOnly: true });
    expect((await plain.query<{ n: number }>("SELECT count(*) AS n FROM runs"))[0]!.n).toBe(1); // other tables still read
    const err = await plain.verify().catch((e) => e);
    plain.close();
    expect(err).toBeInstanceOf(CorruptWorkspaceError);
    expect(err.message).toMatch(/table cards in openmle\.duckdb cannot be read \(.*checksum/);
    await expect(openWorkspace(dir, { verify: true })).rejects.toThrow(CorruptWorkspaceError);

    const program = new Command().exitOverride();
    registerWorkspace(program);
    await expect(program.parseAsync(["workspace", "check", dir], { from: "user" })).rejects.toThrow(/cannot be read/);
  });

  it("an intact workspace passes, reading every row", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "openmle-verify-")), "ws");
    const ws = await openWorkspace(dir, { verify: true });
    await ws.append("runs", [{ run_id: "a" }, { run_id: "b" }]);
    expect(await ws.verify()).toMatchObject({ rows: 3 }); // two runs and the schema version row
    ws.close();
    const program = new Command().exitOverride();
    registerWorkspace(program);
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      await program.parseAsync(["workspace", "check", dir, "--json"], { from: "user" });
      expect(JSON.parse(String(write.mock.calls[0]![0]))).toMatchObject({ ok: true, rows: 3 });
    } finally {
      write.mockRestore();
    }
  });
});
