// Attempts with crafted workspace data (issue 59 point 6): a checkpoint whose params are JSON nested 20,000
// levels deep, through the four commands that load checkpoints; `reproduce --recorded-loop` given a `../` name;
// and the temporary workspaces of openRecordedRuns left behind. Every command runs as the real `openmle` in a
// child process, so a stack trace is what a person would see.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { saveCheckpoint } from "../../../kit/erl/index.js";
import { defaultGrammarParams } from "../../../kit/policy/grammar/index.js";
import { TINY_TASK_DIR } from "../../../kit/sandbox/test-helpers.js";
import { exportParquet, openWorkspace } from "../../../kit/store/index.js";
import type { Attempt, AttemptContext, Outcome } from "../attempt.js";

const ROOT = new URL("../../..", import.meta.url).pathname;
const RECORDED = join(ROOT, "data", "recorded-runs");
/** Grammar params whose one logit row is an array nested 20,000 deep (what the Parquet held). */
const DEEP_PARAMS = `{"version":3,"logits":{"x":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`;
/** A Node stack frame. */
const STACK = /^\s+at .+\(.*\)$|^\s+at \S+:\d+:\d+$|RangeError|Maximum call stack/m;

const short = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 100);

/** The real `openmle <args>` in a child process. */
function openmle(args: string[], timeoutMs = 120_000, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "kit/cli/main.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: timeoutMs,
    env,
  });
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "", timedOut: r.error?.message.includes("ETIMEDOUT") ?? false };
}

/** Held when a command failed with one line and no stack trace (what a refusal must look like). */
function oneLine(label: string, r: ReturnType<typeof openmle>): { ok: boolean; row: string } {
  const err = r.err.trim();
  const ok = !r.timedOut && r.code === 1 && err.split("\n").length === 1 && !STACK.test(err);
  const what = r.timedOut ? "hung" : r.code === 0 ? `accepted (${short(r.out)})` : STACK.test(err) ? `stack overflow (${short(err).slice(0, 40)})` : short(err);
  return { ok, row: `${label}: ${ok ? short(err).slice(0, 60) : what}` };
}

/** A Parquet export of policy_checkpoints holding checkpoint "deep" with DEEP_PARAMS, and the same params as a file. */
async function craft(dir: string): Promise<{ parquet: string; json: string }> {
  const src = join(dir, "craft-ws");
  rmSync(src, { recursive: true, force: true });
  const ws = await openWorkspace(src);
  try {
    await saveCheckpoint(ws, { name: "deep", params: defaultGrammarParams(), parent: null, source: "sft" });
    const parquet = join(dir, "deep-checkpoint.parquet");
    await exportParquet(ws, `SELECT * REPLACE ('${DEEP_PARAMS}' AS params) FROM policy_checkpoints`, parquet);
    const json = join(dir, "deep-params.json");
    writeFileSync(json, DEEP_PARAMS);
    return { parquet, json };
  } finally {
    ws.close();
  }
}

/** A workspace holding the crafted row as stored (put there directly, as an older kit's import did). */
async function holding(dir: string, parquet: string): Promise<string> {
  const wsDir = join(dir, `holding-${Date.now()}`);
  const ws = await openWorkspace(wsDir);
  try {
    await ws.exec(`INSERT INTO policy_checkpoints SELECT * FROM read_parquet('${parquet}')`);
  } finally {
    ws.close();
  }
  return wsDir;
}

/** Runs `cases` and says whether every one refused in one line. */
function all(cases: { label: string; args: string[] }[]): Outcome {
  const rows = cases.map((c) => oneLine(c.label, openmle(c.args)));
  return { held: rows.every((r) => r.ok), detail: rows.map((r) => r.row).join("; ") };
}

export const attempts: Attempt[] = [
  {
    id: "deep-params-workspace-import",
    source: "issue 59.6",
    what: "`workspace import` of a policy_checkpoints Parquet whose params nest 20,000 deep, then `policy diff` on it",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      const { parquet } = await craft(ctx.dir);
      const ws = join(ctx.dir, "imported-ws");
      const imported = openmle(["workspace", "import", ws, parquet, "policy_checkpoints"]);
      const imp = oneLine("import", imported);
      const diff = oneLine("then policy diff", openmle(["policy", "diff", "default", "deep", "--workspace", ws]));
      // Held: the import itself refuses (naming the limit), so nothing crafted is stored for later commands.
      return { held: imp.ok && /64 levels/.test(imported.err) && diff.ok, detail: `${imp.row}; ${diff.row}` };
    },
  },
  {
    id: "deep-params-policy-diff",
    source: "issue 59.6",
    what: "`policy diff` of a stored checkpoint and of a params file whose params nest 20,000 deep",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      const { parquet, json } = await craft(ctx.dir);
      const ws = await holding(ctx.dir, parquet);
      return all([
        { label: "checkpoint", args: ["policy", "diff", "default", "deep", "--workspace", ws] },
        { label: "file", args: ["policy", "diff", "default", json] },
      ]);
    },
  },
  {
    id: "deep-params-evolve",
    source: "issue 59.6",
    what: "`evolve --params` a stored checkpoint and a params file whose params nest 20,000 deep",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      const { parquet, json } = await craft(ctx.dir);
      const ws = await holding(ctx.dir, parquet);
      const evolve = (p: string) => ["evolve", "--task", TINY_TASK_DIR, "--workspace", ws, "--steps", "1", "--params", p];
      return all([
        { label: "checkpoint", args: evolve("deep") },
        { label: "file", args: evolve(json) },
      ]);
    },
  },
  {
    id: "deep-params-recorded-loop",
    source: "issue 59.6",
    what: "`reproduce --recorded-loop` of a recording (learning-armA's loop) whose checkpoints' params nest 20,000 deep",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      const name = `zz-bench-deep-${process.pid}`;
      const rec = join(RECORDED, name);
      mkdirSync(rec, { recursive: true });
      try {
        cpSync(join(RECORDED, "learning-armA", "loops.parquet"), join(rec, "loops.parquet"));
        const ws = await openWorkspace(join(ctx.dir, "craft-rec-ws"));
        try {
          const src = join(RECORDED, "learning-armA", "policy_checkpoints.parquet");
          await exportParquet(ws, `SELECT * REPLACE ('${DEEP_PARAMS}' AS params) FROM read_parquet('${src}')`, join(rec, "policy_checkpoints.parquet"));
        } finally {
          ws.close();
        }
        const args = ["reproduce", "model-fixed-harness", "--preset", "smoke", "--workspace", join(ctx.dir, "rec-ws"), "--recorded-loop", name];
        const r = oneLine("reproduce", openmle(args, 180_000));
        return { held: r.ok, detail: r.row };
      } finally {
        rmSync(rec, { recursive: true, force: true });
      }
    },
  },
  {
    id: "recorded-loop-dotdot",
    source: "issue 59.6",
    what: "`reproduce --recorded-loop ../../…/evil` naming a folder outside data/recorded-runs",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      const base = join(ctx.dir, "dotdot"); // its own folder: other groups leave `evil-*` entries in ctx.dir
      const evil = join(base, "evil");
      mkdirSync(evil, { recursive: true });
      cpSync(join(RECORDED, "learning-armA", "policy_checkpoints.parquet"), join(evil, "policy_checkpoints.parquet"));
      // Enough `..` to reach / both from data/recorded-runs and from the temp folder the kit made its workspace in.
      const name = `${"../".repeat(20)}${evil.slice(1)}`;
      const args = ["reproduce", "model-fixed-harness", "--preset", "smoke", "--workspace", join(ctx.dir, "dotdot-ws"), "--recorded-loop", name];
      const r = openmle(args, 180_000);
      const beside = readdirSync(base).filter((e) => e.startsWith("evil-"));
      const line = oneLine("reproduce", r);
      const readOutside = /hold no loop|more than one loop/.test(r.err);
      return {
        held: line.ok && !readOutside && beside.length === 0,
        detail: `${line.row}${readOutside ? " (it read the folder outside)" : ""}; ${beside.length} temporary workspaces beside the target`,
      };
    },
  },
  {
    id: "recorded-runs-leftovers",
    source: "issue 59.6",
    what: "openRecordedRuns opened and closed, then opened by a process killed with SIGKILL, then opened again",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      // A private TMPDIR, so only this attempt's temporary workspaces are counted.
      const tmp = join(ctx.dir, "leftovers-tmp");
      mkdirSync(tmp, { recursive: true });
      const child = (body: string) =>
        spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `import { openRecordedRuns } from "./kit/report/index.ts";\n${body}`], {
          cwd: ROOT,
          encoding: "utf8",
          timeout: 120_000,
          env: { ...process.env, TMPDIR: tmp },
        });
      const count = () => readdirSync(tmp).filter((e) => e.startsWith("openmle-recorded-")).length;
      const closed = child(`const ws = await openRecordedRuns("cars"); ws.close();`);
      const afterClose = count();
      const killed = child(`await openRecordedRuns("cars"); process.kill(process.pid, "SIGKILL");`);
      const afterKill = count();
      const next = child(`const ws = await openRecordedRuns("cars"); ws.close();`);
      const afterNext = count();
      const failed = [closed, next].find((r) => r.status !== 0);
      if (failed) return { held: false, detail: `a child failed: ${short(failed.stderr)}` };
      return {
        held: afterClose === 0 && afterNext === 0,
        detail: `left after close ${afterClose}; after a SIGKILL ${afterKill} (${killed.signal ?? killed.status}); after the next open ${afterNext}`,
      };
    },
  },
];
