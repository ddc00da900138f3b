// Attempts on what the CLI and the dashboard show and answer (issue 59 point 7, build point 3): a page whose
// name was re-pointed at 127.0.0.1 (DNS rebinding) reading the dashboard, an unresolvable `serve --host`,
// bidi controls in names, and `workspace query` without a time or memory limit. In the shape of
// bench/security/attempt.ts; the registry lists the module (group `cli-surface`).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { serveDashboard } from "../../../kit/report/index.js";
import { copyTask, TINY_TASK_DIR } from "../../../kit/sandbox/test-helpers.js";
import { openWorkspace } from "../../../kit/store/index.js";
import type { Attempt, Outcome } from "../attempt.js";

const ROOT = new URL("../../..", import.meta.url).pathname;
const short = (s: string) => s.trim().split("\n")[0]!.slice(0, 110);

/** Network-isolated children where this host allows it: a lookup the old code made never leaves the machine. */
const NO_NET = spawnSync("unshare", ["-rn", "true"]).status === 0 ? ["unshare", "-rn"] : [];

/** The real `openmle` in a child process (stdout and stderr exactly as a person would see them). */
function openmle(args: string[], timeoutMs = 180_000, prefix: string[] = []) {
  const argv = [...prefix, process.execPath, "--import", "tsx", "kit/cli/main.ts", ...args];
  const t = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd: ROOT, encoding: "utf8", timeout: timeoutMs, maxBuffer: 1 << 20 });
  const s = (performance.now() - t) / 1000;
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "", s, killed: r.error !== undefined || r.signal !== null };
}

/** A workspace whose journal holds one run, as a running `evolve` leaves it (the dashboard reads only that). */
async function journalWorkspace(dir: string, runId: string): Promise<string> {
  (await openWorkspace(dir)).close();
  mkdirSync(join(dir, "journal"), { recursive: true });
  const start = { type: "run-start", runId, taskId: "tiny", harness: "evo", higherIsBetter: true, steps: 3 };
  writeFileSync(join(dir, "journal", "run.jsonl"), `${JSON.stringify({ ...start, resumed: false, at: new Date().toISOString() })}\n`);
  return dir;
}

/** GET http://127.0.0.1:port/path with a forged Host header, as a rebinding page's fetch would send it. */
function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      let body = "";
      res.on("data", (b) => (body += String(b)));
      res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", fail).end();
  });
}

const BIDI = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** "report\u202Efdp.exe" shows as "reportexe.pdf"; an isolate hides the order of what follows. */
const BIDI_NAME = "report\u202Efdp.exe\u2066\u2067x\u2069\u200f\u061c";

/** Held when `text` shows no raw bidi control; `want` (the name as escaped) must be in it. */
function bidiClean(text: string, want: string): Outcome & { why: string } {
  const raw = BIDI.exec(text);
  const shown = text.includes(want);
  const why = raw ? `raw U+${raw[0].charCodeAt(0).toString(16).toUpperCase()}` : shown ? "escaped" : "name missing";
  return { held: !raw && shown, detail: why, why };
}

/**
 * `workspace query <sql>` with `flags`; held when it stops within `withinS` with the one line `want`. On a kit
 * without the flags, the same query without them shows what happens unlimited (killed after `withinS`).
 */
async function limitedQuery(dir: string, sql: string, flags: string[], want: RegExp, withinS: number): Promise<Outcome> {
  const ws = join(dir, "ws");
  (await openWorkspace(ws)).close();
  const r = openmle(["workspace", "query", ws, sql, ...flags], withinS * 1000);
  const oneLine = r.err.split("\n").filter(Boolean).length === 1;
  if (r.code === 1 && oneLine && want.test(r.err) && !r.killed)
    return { held: true, detail: `stopped after ${r.s.toFixed(1)} s: ${short(r.err)}` };
  if (!/unknown option/.test(r.err)) return { held: false, detail: `exit ${r.code}${r.killed ? " (killed)" : ""}: ${short(r.err)}` };
  const bare = openmle(["workspace", "query", ws, sql], withinS * 1000);
  const what = bare.killed ? `ran ${bare.s.toFixed(0)} s until killed` : `exit ${bare.code} after ${bare.s.toFixed(1)} s, ${bare.out.length} bytes out`;
  return { held: false, detail: `no ${flags[0]} flag; without it the query ${what}` };
}

export const attempts: Attempt[] = [
  {
    id: "serve-forged-host", source: "issue 59.7", perExecutor: false,
    what: "a DNS-rebinding page: GET /api/state and / on the dashboard (127.0.0.1) with Host evil.example:<port>",
    async run(ctx) {
      const ws = await journalWorkspace(join(ctx.dir, "rebind", "ws"), "run-secret-7");
      const dash = await serveDashboard({ workspace: ws, port: 0 });
      try {
        const port = Number(new URL(dash.url).port);
        const state = await get(port, "/api/state", `evil.example:${port}`);
        const page = await get(port, "/", `evil.example:${port}`);
        const leaked = state.body.includes("run-secret-7") || page.status === 200;
        const own = await get(port, "/api/state", `localhost:${port}`);
        const served = own.status === 200 && own.body.includes("run-secret-7");
        return {
          held: !leaked && served && state.status >= 400,
          detail: `forged Host: /api/state ${state.status}${leaked ? " with the run id" : ""}, / ${page.status}; localhost ${own.status}`,
        };
      } finally {
        await dash.close();
      }
    },
  },
  {
    id: "serve-host-unresolvable", source: "issue 59.7", perExecutor: false,
    what: "openmle serve --host no-such-host.invalid (a name that never resolves): a stack trace or one line?",
    async run(ctx) {
      const ws = await journalWorkspace(join(ctx.dir, "badhost", "ws"), "r1");
      const r = openmle(["serve", "--workspace", ws, "--port", "0", "--host", "no-such-host.invalid"], 60_000, NO_NET);
      const lines = r.err.split("\n").filter(Boolean);
      const one = lines.length === 1 && /^openmle: --host no-such-host\.invalid cannot be resolved.*pass /.test(lines[0]!);
      return { held: r.code === 1 && one, detail: `exit ${r.code}${r.killed ? " (killed)" : ""}, ${lines.length} lines: ${short(r.err)}` };
    },
  },
  {
    id: "bidi-artifact-name", source: "issue 59.7", perExecutor: false,
    what: "sandbox run: an artifact named report\\u202Efdp.exe\\u2066… and a traceback with U+202E (shows as reportexe.pdf)",
    async run(ctx) {
      const code = join(ctx.dir, "bidi", "main.py");
      mkdirSync(join(ctx.dir, "bidi"), { recursive: true });
      writeFileSync(code, `open(${JSON.stringify(BIDI_NAME)}, "w").write("x")\nraise RuntimeError("score \\u202e0.1 :erocS")\n`);
      const r = openmle(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--timeout", "60", "--memory", "512"]);
      const c = bidiClean(r.out + r.err, "report\\u202efdp.exe\\u2066\\u2067x\\u2069\\u200f\\u061c");
      return { held: c.held && r.code === 0, detail: `exit ${r.code}: ${c.why}` };
    },
  },
  {
    id: "bidi-task-describe", source: "issue 59.7", perExecutor: false,
    what: "task describe and --json: a package whose id and description carry U+202E and isolates",
    async run(ctx) {
      const dir = copyTask(join(ctx.dir, "bidi-task"), { "data/public/description.txt": `About ${BIDI_NAME}\n` }, {
        ...ctx.meta, id: `tiny${BIDI_NAME}`,
      });
      const human = openmle(["task", "describe", dir]);
      const json = openmle(["task", "describe", dir, "--json"]);
      const c = bidiClean(human.out + human.err, "report\\u202efdp.exe");
      const j = BIDI.exec(json.out + json.err);
      const held = c.held && !j && human.code === 0 && json.code === 0;
      return { held, detail: `describe exit ${human.code}: ${c.why}; --json exit ${json.code}: ${j ? "raw bidi" : "escaped"}` };
    },
  },
  {
    id: "query-endless", source: "issue 59.7", perExecutor: false,
    what: "workspace query --timeout 2: a cross join of 10^11 rows (stopped within 20 s?)",
    run: (ctx) =>
      limitedQuery(join(ctx.dir, "q-time"), "SELECT sum(a.range * b.range) FROM range(100000) a, range(1000000) b",
        ["--timeout", "2"], /^openmle: query stopped at its time limit \(--timeout 2 s\): .*--timeout\.\n$/, 20),
  },
  {
    id: "query-memory", source: "issue 59.7", perExecutor: false,
    what: "workspace query --memory 64: count(DISTINCT) over 50 million strings (GBs unlimited)",
    run: (ctx) =>
      limitedQuery(join(ctx.dir, "q-mem"), "SELECT count(DISTINCT 'x' || i::VARCHAR) AS n FROM range(50000000) t(i)",
        ["--memory", "64"], /^openmle: query stopped at its memory limit \(--memory 64 MiB; Out of Memory Error/, 30),
  },
  {
    id: "query-huge-result", source: "issue 59.7", perExecutor: false,
    what: "workspace query --memory 64: a million 1,000-character rows returned (1 GB read into Node)",
    run: (ctx) =>
      limitedQuery(join(ctx.dir, "q-rows"), "SELECT i, repeat('x', 1000) AS s FROM range(1000000) t(i)",
        ["--memory", "64"], /^openmle: query stopped: its rows take more than its memory limit \(--memory 64 MiB/, 30),
  },
];
