// What a manifest, a package or a build leaves names, read on the host (issue 59 points 3, 4 and the `task build`
// part of 7): a corpus candidate's object or package climbing out of its source, the readable copy the jail makes of
// an input, a FIFO and a link to /dev/zero in a package's data, and a `task build` killed half-way.
// In the shape of bench/security/attempt.ts; group `package-bounds`.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { exportCandidate, loadManifest } from "../../../kit/gym/index.js";
import { candidateInput, npmPackageDir } from "../../../kit/gym/corpus/source-paths.js";
import { runJailed, sandboxHostUser, stagingBase } from "../../../kit/jail/index.js";
import { copyTask, program } from "../../../kit/sandbox/test-helpers.js";
import { vegaRecords, writeCsv } from "../../../kit/gym/test-helpers/raw-tables.js";
import type { Attempt, AttemptContext } from "../attempt.js";

const ROOT = new URL("../../..", import.meta.url).pathname;
const short = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 140);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NOBODY = 65534;

interface Ran {
  readonly code: number | null;
  readonly err: string;
  readonly s: number;
  /** Why it was killed: past the time limit or the memory cap; null when it ended by itself. */
  readonly killed: "time" | "memory" | null;
  readonly rssMb: number;
}

/** The real `openmle <args>` in a child, killed past `timeoutMs` or `maxRssMb` of resident memory. */
function openmle(args: string[], opts: { timeoutMs: number; maxRssMb?: number }): Promise<Ran> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "kit/cli/main.ts", ...args], { cwd: ROOT });
  let err = "";
  child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
  child.stdout.resume();
  let killed: Ran["killed"] = null;
  let rssMb = 0;
  const watch = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(spawnSync("cat", [`/proc/${child.pid}/status`]).stdout.toString())?.[1]);
      rssMb = Math.max(rssMb, (kb || 0) / 1024);
    } catch {
      /* gone */
    }
    const over = opts.maxRssMb && rssMb > opts.maxRssMb ? "memory" : performance.now() - t0 > opts.timeoutMs ? "time" : null;
    if (over && !killed) {
      killed = over;
      child.kill("SIGKILL");
    }
  }, 100);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearInterval(watch);
      resolve({ code, err, s: (performance.now() - t0) / 1000, killed, rssMb: Math.round(rssMb) });
    }),
  );
}

/** Held when the command ended by itself, failed, and said so in one `openmle:` line matching `expect`. */
function oneLineRefusal(r: Ran, expect: RegExp): { held: boolean; detail: string } {
  const lines = r.err.trim().split("\n").filter(Boolean);
  if (r.killed) return { held: false, detail: `killed past its ${r.killed} limit after ${r.s.toFixed(1)} s (${r.rssMb} MiB)` };
  const ok = r.code !== 0 && lines.length === 1 && lines[0]!.startsWith("openmle: ") && expect.test(lines[0]!);
  return { held: ok, detail: `exit ${r.code} after ${r.s.toFixed(1)} s: ${short(lines.slice(0, 3).join(" | "))}` };
}

/** Whether another local user (nobody, no groups) can read `path`. */
const nobodyReads = (path: string) =>
  spawnSync("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "cat", path], { stdio: "ignore" })
    .status === 0;

/** A root-only CSV (0600 in a 0700 folder) with a marker in every row. */
function rootOnlyTable(ctx: AttemptContext): string {
  const dir = join(ctx.dir, "package-bounds-secret");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, "root-only.csv");
  const rows = Array.from({ length: 150 }, (_, i) => `${i},TOPSECRET-${i},${i % 3}`);
  writeFileSync(file, `id,secret,label\n${rows.join("\n")}\n`, { mode: 0o600 });
  return file;
}

/** The fixture task copied with a task.json (no package code runs to load it), and a program that succeeds. */
function taskCopy(ctx: AttemptContext, name: string): { pkg: string; code: string } {
  const pkg = copyTask(join(ctx.dir, name), {}, ctx.meta);
  const code = join(ctx.dir, `${name}.py`);
  writeFileSync(code, program("success"));
  return { pkg, code };
}

export const attempts: Attempt[] = [
  {
    id: "npm-object-escape", source: "issue 59.3", perExecutor: false,
    what: "an npm candidate in $OPENMLE_CORPUS_MANIFEST whose object is ../../…/root-only.csv, exported",
    async run(ctx) {
      const secret = rootOnlyTable(ctx);
      const manifest = join(ctx.dir, "package-bounds-manifest.json");
      const object = relative(npmPackageDir("vega-datasets"), secret);
      const cand = { id: "npm-vega-escape", source: "npm", package: "vega-datasets", version: "1", object, licence: "x", description: "x" };
      writeFileSync(manifest, JSON.stringify([cand]));
      const saved = process.env.OPENMLE_CORPUS_MANIFEST;
      process.env.OPENMLE_CORPUS_MANIFEST = manifest;
      const out = join(ctx.dir, "package-bounds-export");
      try {
        const e = await exportCandidate(loadManifest()[0]!, out).then(() => null, (err: Error) => err);
        const table = join(out, "table.csv");
        if (existsSync(table)) {
          const leaked = spawnSync("grep", ["-c", "TOPSECRET", table], { encoding: "utf8" }).stdout.trim();
          return { held: false, detail: `exported: ${leaked} rows of the root-only file in table.csv (mode ${(statSync(table).mode & 0o777).toString(8)})` };
        }
        const msg = e?.message ?? "no error";
        const held = !!e && !msg.includes("\n") && msg.includes("npm-vega-escape") && msg.includes(object) && /rule/.test(msg);
        return { held, detail: short(msg) };
      } finally {
        if (saved === undefined) delete process.env.OPENMLE_CORPUS_MANIFEST;
        else process.env.OPENMLE_CORPUS_MANIFEST = saved;
      }
    },
  },
  {
    id: "npm-package-escape", source: "issue 59.3", perExecutor: false,
    what: "an npm candidate whose package is ../../…/<folder> (out of node_modules), object root-only.csv",
    async run(ctx) {
      const secret = rootOnlyTable(ctx);
      const pkg = relative(join(ROOT, "node_modules"), join(secret, ".."));
      const cand = { id: "npm-package-escape", source: "npm" as const, package: pkg, version: "1", object: "root-only.csv", licence: "x", description: "x" };
      try {
        const path = candidateInput(cand);
        return { held: false, detail: `accepted: the export would mount ${path}` };
      } catch (e) {
        const msg = (e as Error).message;
        return { held: !msg.includes("\n") && msg.includes("npm-package-escape") && /rule/.test(msg), detail: short(msg) };
      }
    },
  },
  {
    id: "readable-copy-mode", source: "issue 59.3", perExecutor: false,
    what: "while a jailed run reads a root-only input, another local user (nobody) reads the kit's /tmp/openmle-copy-*",
    async run(ctx) {
      const user = sandboxHostUser();
      if (!user) return { held: true, detail: "not root: the jail runs as this user and makes no copies" };
      const secret = rootOnlyTable(ctx);
      const base = stagingBase(user);
      const before = new Set(readdirSync(base));
      const run = runJailed({
        command: ["/bin/sh", "-c", `head -c 30 '${secret}'; sleep 3`],
        mounts: [{ path: secret }],
        limits: { timeoutS: 30, memoryMb: 256 },
      });
      const seen = new Map<string, string>();
      let leaked = "";
      for (let t = 0; t < 30; t++) {
        for (const n of readdirSync(base).filter((x) => x.startsWith("openmle-copy-") && !before.has(x))) {
          try {
            seen.set(n, (statSync(join(base, n)).mode & 0o777).toString(8));
          } catch {
            continue;
          }
          if (nobodyReads(join(base, n, "c"))) leaked = n;
        }
        await sleep(100);
      }
      const r = await run;
      const read = r.stdout.includes("TOPSECRET");
      const modes = [...seen.values()].join(", ") || "none seen";
      if (leaked) return { held: false, detail: `nobody read ${join(base, leaked)}/c (folder modes ${modes})` };
      return { held: read && seen.size > 0, detail: `copies ${modes}; nobody read none; the jail read it: ${read}` };
    },
  },
  {
    id: "fifo-in-public", source: "issue 59.4", perExecutor: false,
    what: "a FIFO in data/public of the task through `openmle sandbox run` (a hang past 60 s counts as broke)",
    async run(ctx) {
      const { pkg, code } = taskCopy(ctx, "package-bounds-fifo");
      spawnSync("mkfifo", [join(pkg, "data", "public", "pipe")]);
      const r = await openmle(["sandbox", "run", "--task", pkg, "--code", code], { timeoutMs: 60_000 });
      return oneLineRefusal(r, /data\/public\/pipe is a FIFO/);
    },
  },
  {
    id: "fifo-description", source: "issue 59.4", perExecutor: false,
    what: "data/public/description.txt as a FIFO through `openmle task describe` (a hang past 60 s counts as broke)",
    async run(ctx) {
      const { pkg } = taskCopy(ctx, "package-bounds-fifo-desc");
      rmSync(join(pkg, "data", "public", "description.txt"), { force: true });
      spawnSync("mkfifo", [join(pkg, "data", "public", "description.txt")]);
      const r = await openmle(["task", "describe", pkg], { timeoutMs: 60_000 });
      return oneLineRefusal(r, /description\.txt is a FIFO/);
    },
  },
  {
    id: "dev-zero-link", source: "issue 59.4", perExecutor: false,
    what: "data/public/zero.csv a link to /dev/zero through `openmle sandbox run` (past 1 GiB resident or 60 s: broke)",
    async run(ctx) {
      const { pkg, code } = taskCopy(ctx, "package-bounds-zero");
      symlinkSync("/dev/zero", join(pkg, "data", "public", "zero.csv"));
      const r = await openmle(["sandbox", "run", "--task", pkg, "--code", code], { timeoutMs: 60_000, maxRssMb: 1024 });
      return oneLineRefusal(r, /zero\.csv is a link to \/dev\/zero, outside/);
    },
  },
  {
    id: "killed-build-leftovers", source: "issue 59.7", perExecutor: false,
    what: "`openmle task build` SIGKILLed once the answers exist: nobody reads them in <out>.tmp-*; the next build cleans up",
    async run() {
      // Under a folder every user may enter (the scratch folder is private, which would hide the leak).
      const dir = mkdtempSync(join(tmpdir(), "package-bounds-build-"));
      chmodSync(dir, 0o755);
      try {
        const table = writeCsv(join(dir, "penguins.csv"), vegaRecords("penguins.json"));
        const spec = join(dir, "spec.json");
        writeFileSync(spec, JSON.stringify({ id: "pb-kill", table, target: "species", metric: "accuracy" }));
        const out = join(dir, "pkgs", "pb-kill");
        const temps = () => (existsSync(join(dir, "pkgs")) ? readdirSync(join(dir, "pkgs")).filter((n) => n.includes(".tmp-")) : []);
        const answers = () => temps().map((n) => join(dir, "pkgs", n, "data", "private", "test_answer.csv")).find(existsSync);
        let caught: string | undefined;
        for (let attempt = 0; attempt < 3 && !caught; attempt++) {
          const child = spawn(process.execPath, ["--import", "tsx", "kit/cli/main.ts", "task", "build", spec, "--out", out, "--force"], { cwd: ROOT, stdio: "ignore" });
          const exited = new Promise((r) => child.on("exit", r));
          let done = false;
          void exited.then(() => (done = true));
          while (!done && !(caught = answers())) await sleep(20);
          child.kill("SIGKILL");
          await exited;
        }
        if (!caught) return { held: false, detail: "inconclusive: every build finished before it could be killed" };
        const left = temps();
        const readable = nobodyReads(caught);
        const mode = (statSync(join(caught, "../../..")).mode & 0o777).toString(8);
        const next = await openmle(["task", "build", spec, "--out", out, "--force"], { timeoutMs: 180_000 });
        const after = temps();
        const held = !readable && next.code === 0 && after.length === 0;
        return {
          held,
          detail: `killed build left ${left.length} .tmp-* (mode ${mode}, answers readable by nobody: ${readable}); ` +
            `next build exit ${next.code}, ${after.length} .tmp-* left`,
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
