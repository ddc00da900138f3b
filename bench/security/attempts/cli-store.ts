// Attempts on the CLI, the store and the host-side helpers (issue 10 points 3, 6, 7, 8, 10, 11), in
// the shape of bench/security/attempt.ts: add `{ group: "cli-store", attempts }` to registry.ts's ATTEMPT_MODULES.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { evolveSettings, registerEvolve, type EvolveFlags } from "../../../kit/cli/evolve-cmd.js";
import { PythonTimeoutError, runPrepare, type TaskPackage } from "../../../kit/gym/index.js";
import { resolveLimits, runSandbox, type Executor } from "../../../kit/sandbox/index.js";
import { program } from "../../../kit/sandbox/test-helpers.js";
import { openWorkspace, ReadOnlyWorkspaceError } from "../../../kit/store/index.js";

import type { Attempt, Outcome } from "../attempt.js";

const short = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 90);

/** A workspace with one run, for the query attempts. */
async function workspaceWithRun(dir: string): Promise<string> {
  const ws = join(dir, "ws");
  if (!existsSync(join(ws, "openmle.duckdb"))) {
    const w = await openWorkspace(ws);
    await w.append("runs", [{ run_id: "r1", task_id: "t", seed: 1 }]);
    w.close();
  }
  return ws;
}

/** `openmle workspace query` as the CLI opens it (read-only, confined); held when it throws and the database file is unchanged. */
function queryAttempt(id: string, what: string, sql: (db: string, port: number) => string): Attempt {
  return {
    id, source: "issue 10.3", what, perExecutor: false,
    async run(ctx) {
      const dir = await workspaceWithRun(join(ctx.dir, "query"));
      const db = join(dir, "openmle.duckdb");
      const before = readFileSync(db);
      const connections = ctx.canaryConnections();
      const w = await openWorkspace(dir, { readOnly: true, confined: true });
      let outcome: Outcome;
      try {
        const rows = await w.query(sql(db, ctx.canaryPort));
        outcome = { held: false, detail: `ran, ${rows.length} rows` };
      } catch (e) {
        outcome = { held: e instanceof ReadOnlyWorkspaceError || /Permission|does not exist/.test(short(e)), detail: short(e) };
      } finally {
        w.close();
      }
      const intact = readFileSync(db).equals(before) && !existsSync(`${db}.wal`);
      const quiet = ctx.canaryConnections() === connections;
      return { held: outcome.held && intact && quiet, detail: `${outcome.detail}${intact ? "" : "; database file changed"}${quiet ? "" : "; canary reached"}` };
    },
  };
}

/** Parse `openmle evolve --task penguins <args>` and return the settings the run would get (nothing runs). */
async function evolveFlags(...args: string[]) {
  const prog = new Command().exitOverride();
  registerEvolve(prog);
  let out: ReturnType<typeof evolveSettings> | undefined;
  prog.commands.find((c) => c.name() === "evolve")!.action((o: EvolveFlags, cmd: Command) => void (out = evolveSettings(o, cmd)));
  await prog.parseAsync(["evolve", "--task", "penguins", ...args], { from: "user" });
  return out!.parsed;
}
const configFile = (dir: string, name: string, value: unknown) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), JSON.stringify(value));
  return join(dir, name);
};

export const attempts: Attempt[] = [
  queryAttempt("query-copy-over-db", "SELECT 1; COPY ... TO the workspace's own database file", (db) => `SELECT 1; COPY (SELECT 'junk' AS x) TO '${db}' (FORMAT csv)`),
  queryAttempt("query-comment-copy-wal", "/**/ hides a COPY into the database's WAL", (db) => `/**/ COPY (SELECT 'junk' AS x) TO '${db}.wal' (FORMAT csv)`),
  queryAttempt("query-read-csv-host", "read_csv('/etc/passwd')", () => "SELECT * FROM read_csv('/etc/passwd')"),
  queryAttempt("query-read-text-host", "read_text('/etc/passwd')", () => "SELECT * FROM read_text('/etc/passwd')"),
  queryAttempt("query-install-from-url", "INSTALL httpfs FROM a URL (the canary on 127.0.0.1)", (_db, port) => `INSTALL httpfs FROM 'http://127.0.0.1:${port}/x'`),
  queryAttempt("query-unlock-settings", "SET enable_external_access = true", () => "SET enable_external_access = true"),
  {
    id: "library-read-only-insert", source: "issue 10.3", what: "a read-only library handle runs /**/ INSERT", perExecutor: false,
    async run(ctx) {
      const w = await openWorkspace(await workspaceWithRun(join(ctx.dir, "query")), { readOnly: true });
      try {
        await w.query("/**/ INSERT INTO runs (run_id) VALUES ('x')");
        return { held: false, detail: "inserted" };
      } catch (e) {
        return { held: e instanceof ReadOnlyWorkspaceError, detail: short(e) };
      } finally {
        w.close();
      }
    },
  },
  {
    id: "config-values-lost", source: "issue 10.6", what: "--config {harness: aide, seed: 7, workers: 2} without flags", perExecutor: false,
    async run(ctx) {
      const s = await evolveFlags("--config", configFile(join(ctx.dir, "config"), "lost.json", { harness: "aide", seed: 7, workers: 2 }));
      return { held: s.harness === "aide" && s.seed === 7 && s.workers === 2, detail: `harness ${s.harness}, seed ${s.seed}, workers ${s.workers}` };
    },
  },
  {
    id: "config-unknown-key", source: "issue 10.6", what: "--config with a typo'd key {sed: 7}", perExecutor: false,
    async run(ctx) {
      const e = await evolveFlags("--config", configFile(join(ctx.dir, "config"), "typo.json", { sed: 7 })).then(() => null, (err: Error) => err);
      return { held: !!e && /unknown key "sed" \(did you mean "seed"\?\)/.test(e.message), detail: e ? short(e) : "accepted" };
    },
  },
  {
    id: "config-wrong-type", source: "issue 10.6", what: "--config with {seed: \"7\"}", perExecutor: false,
    async run(ctx) {
      const e = await evolveFlags("--config", configFile(join(ctx.dir, "config"), "type.json", { seed: "7" })).then(() => null, (err: Error) => err);
      return { held: !!e && /seed: expected number/.test(e.message), detail: e ? short(e) : "accepted" };
    },
  },
  {
    id: "timeout-overflow", source: "issue 10.8", what: "--timeout 1e12 (past Node's 2^31-1 ms timer), flag, config and limits", perExecutor: false,
    async run(ctx) {
      const flag = await evolveFlags("--timeout", "1e12").then(() => "accepted", (e: Error) => e.message);
      const file = await evolveFlags("--config", configFile(join(ctx.dir, "config"), "t.json", { perRunTimeoutS: 1e12 })).then(() => "accepted", (e: Error) => e.message);
      let limits = "accepted";
      try {
        resolveLimits({ timeoutS: 1e12 });
      } catch (e) {
        limits = short(e);
      }
      const held = [flag, file, limits].every((m) => m !== "accepted" && /2,?147,?483/.test(m));
      return { held, detail: held ? "rejected by flag, config schema and sandbox limits" : `${flag} | ${file} | ${limits}` };
    },
  },
  {
    id: "prepare-ignores-sigterm", source: "issue 10.7", what: "prepare.py ignoring SIGTERM with a child, 4 s limit", perExecutor: false,
    async run(ctx) {
      // Since issue 25 prepare runs in the jail (raw/ read-only, its own pid namespace): its processes are
      // found on the host by a mark in their command lines.
      const dir = join(ctx.dir, "hostile-prepare");
      const mark = `sigterm-${process.pid}-${Date.now()}`;
      mkdirSync(join(dir, "raw"), { recursive: true });
      writeFileSync(join(dir, "prepare.py"), [
        "import os, signal, subprocess, sys, time",
        "def prepare(raw, public, private):",
        "    signal.signal(signal.SIGTERM, signal.SIG_IGN)",
        "    c = subprocess.Popen([sys.executable, '-c', 'import signal, time\\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\\nwhile True: time.sleep(0.05) # ${mark}'])",
        "    (public / 'started').write_text('1')",
        "    while True: time.sleep(0.05)",
      ].join("\n"));
      const t0 = performance.now();
      const e = await runPrepare(join(dir, "prepare.py"), join(dir, "raw"), join(dir, "pub"), join(dir, "priv"), { timeoutMs: 4000 }).then(() => null, (err: unknown) => err);
      const s = (performance.now() - t0) / 1000;
      await new Promise((r) => setTimeout(r, 200));
      const started = existsSync(join(dir, "pub", "started"));
      const alive = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).map(Number).filter((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(mark) && !/^State:\s+Z/m.test(readFileSync(`/proc/${p}/status`, "utf8"));
        } catch {
          return false;
        }
      });
      alive.forEach((p) => process.kill(p, "SIGKILL"));
      return { held: started && e instanceof PythonTimeoutError && alive.length === 0, detail: `${started ? "started, " : "never started, "}stopped after ${s.toFixed(1)} s, ${alive.length} processes left` };
    },
  },
  {
    id: "corrupt-data-block", source: "issue 10.10", what: "16 KiB of garbage in a block of table data", perExecutor: false,
    async run(ctx) {
      const dir = join(ctx.dir, "corrupt", "ws");
      const ws = await openWorkspace(dir);
      await ws.append("cards", Array.from({ length: 20_000 }, (_, i) => ({ run_id: "r", node_id: `n${i}`, operator: "draft", generation_id: i, score: i / 7 })));
      await ws.exec("CHECKPOINT");
      const [{ block }] = await ws.query<{ block: number }>("SELECT max(block_id) AS block FROM pragma_storage_info('cards') WHERE column_name = 'node_id' AND block_id >= 0");
      const [{ size }] = await ws.query<{ size: number }>("SELECT block_size AS size FROM pragma_database_size()");
      ws.close();
      const fd = openSync(join(dir, "openmle.duckdb"), "r+");
      writeSync(fd, Buffer.alloc(16 * 1024, 0x41), 0, 16 * 1024, 3 * 4096 + block * size + 1000);
      closeSync(fd);
      const e = await openWorkspace(dir, { readOnly: true, verify: true }).then((w) => (w.close(), null), (err: unknown) => err);
      return { held: e !== null, detail: e ? short(e) : "opened and verified as intact" };
    },
  },
  {
    id: "score-1e308", source: "issue 10.11", what: "a program prints Final Validation Score: 1e308 on an accuracy task", perExecutor: true,
    async run(ctx, executor) {
      const task: TaskPackage = { ...ctx.task, meta: { ...ctx.task.meta, metric: "accuracy" } };
      const code = program("success").replace(/print\(f"Final Validation Score: .*\n/, 'print("Final Validation Score: 1e308")\n');
      const r = await runSandbox({ task, code, limits: { timeoutS: 60, memoryMb: 1024, cpus: 1 }, ...(executor ? { executor } : {}) });
      return { held: r.validScore === null && r.errorSignature === "score_out_of_range", detail: `status ${r.status}, validScore ${r.validScore}, signature ${r.errorSignature}` };
    },
  },
];
