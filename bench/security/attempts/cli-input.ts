// Attempts on what the CLI takes in and prints (issue 25 breaks 7, 8 and 9): terminal escapes in text
// that programs and packages wrote, numeric flags past what the kit can hold, and path flags naming
// folders, FIFOs or nothing. In the shape of bench/security/attempt.ts; group `cli-input` in registry.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { registerEvolve } from "../../../kit/cli/evolve-cmd.js";
import { registerLlm } from "../../../kit/cli/llm-cmd.js";
import { registerLoop } from "../../../kit/cli/loop-cmd.js";
import { registerReport } from "../../../kit/cli/report-cmd.js";
import { registerRl } from "../../../kit/cli/rl-cmd.js";
import { registerSandbox } from "../../../kit/cli/sandbox-cmd.js";
import { registerServe } from "../../../kit/cli/serve-cmd.js";
import { registerSft } from "../../../kit/cli/sft-cmd.js";
import { registerEvaluate } from "../../../kit/cli/evaluate-cmd.js";
import { registerTask } from "../../../kit/cli/task-cmd.js";
import { registerWorker } from "../../../kit/cli/worker-cmd.js";
import { registerWorkspace } from "../../../kit/cli/workspace-cmd.js";
import { UsageError } from "../../../kit/cli/run-cli.js";
import { evolve } from "../../../kit/evo/index.js";
import { loadTask, type TaskPackage } from "../../../kit/gym/index.js";
import { copyTask, program, TINY_TASK_DIR } from "../../../kit/sandbox/test-helpers.js";
import { openWorkspace } from "../../../kit/store/index.js";
import type { Attempt } from "../attempt.js";

const ROOT = new URL("../../..", import.meta.url).pathname;
const short = (s: string) => s.split("\n")[0]!.slice(0, 100);

/** The real `openmle` in a child process (so the terminal output is exactly what a person would see). */
function openmle(args: string[], timeoutMs = 180_000) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "kit/cli/main.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: timeoutMs,
  });
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "", timedOut: r.error?.message.includes("ETIMEDOUT") ?? false };
}

/** Control characters a terminal acts on: everything of C0, DEL and C1 but the line break. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const FORGED = /^Final Validation Score|^PASSED/m;
const EVIL = "evil\x1b[31mRED\x1b]0;pwned\x07\nFinal Validation Score: 1.0";

/** Held when `text` carries no raw control character and no line a program forged. */
function clean(text: string): { held: boolean; why: string } {
  const raw = RAW_CONTROL.exec(text);
  const forged = FORGED.exec(text);
  const why = [raw ? `raw \\x${raw[0].charCodeAt(0).toString(16).padStart(2, "0")}` : "", forged ? `forged line "${forged[0]}"` : ""];
  return { held: !raw && !forged, why: why.filter(Boolean).join(", ") || "escaped" };
}

/** Every numeric flag with a value past its range, as the commands parse them (nothing runs: the check comes first). */
function numericCases(dir: string, code: string): { cmd: string; args: string[] }[] {
  const ws = join(dir, "never-made");
  return [
    ...["steps", "workers", "islands", "seed", "timeout"].map((f) => ({ cmd: "evolve", args: ["evolve", "--task", "penguins", "--workspace", ws, `--${f}`, f === "seed" ? "1e300" : "1e12"] })),
    ...["timeout", "memory", "cpus", "gpus", "disk"].map((f) => ({ cmd: "sandbox run", args: ["sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, `--${f}`, "1e12"] })),
    ...["steps", "group", "workers", "seed", "timeout"].map((f) => ({ cmd: "rl train", args: ["rl", "train", "--workspace", ws, "--tasks", "penguins", "--to", "x", `--${f}`, f === "seed" ? "1e300" : "1e12"] })),
    ...["attempts", "batch", "cap", "seed", "timeout"].map((f) => ({ cmd: "sft collect", args: ["sft", "collect", "--workspace", ws, "--dataset", "d", "--tasks", "penguins", `--${f}`, f === "seed" ? "1e300" : "1e12"] })),
    ...["epochs", "lr", "held-out", "seed"].map((f) => ({ cmd: "sft train", args: ["sft", "train", "--workspace", ws, "--dataset", "d", "--to", "x", `--${f}`, f === "seed" ? "1e300" : "1e12"] })),
    ...["cpus", "gpus", "lock-ms", "stalled-ms"].map((f) => ({ cmd: "worker", args: ["worker", "--redis", "redis://127.0.0.1:1", "--task", TINY_TASK_DIR, `--${f}`, "1e12"] })),
    { cmd: "evolve", args: ["evolve", "--task", "penguins", "--workspace", ws, "--policy", "openai", "--temperature", "1e12"] },
    { cmd: "evolve", args: ["evolve", "--task", "penguins", "--workspace", ws, "--policy", "openai", "--max-tokens", "1e12"] },
    { cmd: "loop", args: ["loop", "--workspace", ws, "--train-tasks", "a", "--heldout-tasks", "b", "--generations", "1e12"] },
    { cmd: "loop", args: ["loop", "--workspace", ws, "--train-tasks", "a", "--heldout-tasks", "b", "--seeds", "1,1e300"] },
    { cmd: "report", args: ["report", "--workspace", ws, "--out", join(dir, "out"), "--step", "1e12"] },
    { cmd: "serve", args: ["serve", "--workspace", ws, "--port", "1e12"] },
    { cmd: "llm replay", args: ["llm", "replay", "--script", code, "--port", "1e12"] },
  ];
}

/** Every path flag pointed at a folder (the checks come before any work). */
function pathCases(dir: string, folder: string): { cmd: string; args: string[] }[] {
  const ws = join(dir, "never-made");
  return [
    { cmd: "sandbox run --code", args: ["sandbox", "run", "--task", TINY_TASK_DIR, "--code", folder] },
    { cmd: "evolve --config", args: ["evolve", "--task", "penguins", "--workspace", ws, "--config", folder] },
    { cmd: "task build <spec>", args: ["task", "build", folder, "--out", join(dir, "pkg")] },
    { cmd: "task score <submission>", args: ["task", "score", TINY_TASK_DIR, folder] },
    { cmd: "llm replay --script", args: ["llm", "replay", "--script", folder] },
    { cmd: "evaluate --baselines", args: ["evaluate", "--workspace", join(dir, "ws"), "--baselines", folder] },
    { cmd: "report --baselines", args: ["report", "--workspace", join(dir, "ws"), "--out", join(dir, "out"), "--baselines", folder] },
    { cmd: "workspace import <file>", args: ["workspace", "import", ws, folder, "runs"] },
  ];
}

/** Parse `args` with every command registered in this process; the error it throws, or null. */
async function parseError(args: string[]): Promise<unknown> {
  const prog = new Command().exitOverride();
  const commands = [registerEvolve, registerSandbox, registerRl, registerSft, registerWorker, registerLoop, registerReport, registerServe, registerLlm, registerTask, registerEvaluate, registerWorkspace];
  for (const register of commands) register(prog);
  return prog.parseAsync(["node", "openmle", ...args]).then(() => null, (e: unknown) => e);
}

const MARK = "@@cli-input ";
type Kind = "numeric" | "path" | "library";
interface ChildCase {
  readonly cmd: string;
  /** Held when it resolves true; the message says what happened. */
  run(): Promise<{ ok: boolean; msg: string }>;
}

/** `openmle <args>` parsed in this process must fail with a one-line usage error that `expect` accepts. */
const refused = (cmd: string, args: string[], expect: (message: string) => boolean): ChildCase => ({
  cmd,
  async run() {
    const e = await parseError(args);
    const ok = e instanceof UsageError && !e.message.includes("\n") && expect(e.message);
    return { ok, msg: e instanceof Error ? short(e.message) : "accepted" };
  },
});

/** The cases of one child: every numeric flag, every path flag, or the library's evolve. */
function childCases(kind: Kind, dir: string, task: TaskPackage): ChildCase[] {
  const code = join(dir, "main.py");
  writeFileSync(code, program("success"));
  if (kind === "numeric")
    return numericCases(dir, code).map((c) => {
      const at = c.args.findIndex((a, i) => a.startsWith("--") && /1e(12|300)$/.test(c.args[i + 1] ?? ""));
      const range = new RegExp(`^${c.args[at]} \\S+ is out of range: use an? (integer|number) from \\S+ to \\S+( \\(.*\\))?\\.$`);
      return refused(`${c.cmd} ${c.args[at]}`, c.args, (m) => range.test(m));
    });
  const folder = join(dir, "folder");
  mkdirSync(folder, { recursive: true });
  if (kind === "path") return pathCases(dir, folder).map((c) => refused(c.cmd, c.args, (m) => m.includes(`${folder}: a folder, not a file.`)));
  return [{
    cmd: "evolve({ config: { steps: 1e12 } })",
    async run() {
      const ws = await openWorkspace(join(dir, "ws"));
      try {
        const e = await evolve({ task, workspace: ws, config: { steps: 1e12 } }).then(() => null, (err: Error) => err);
        const runs = await ws.query("SELECT run_id FROM runs");
        return { ok: !!e && runs.length === 0, msg: `${e ? `${e.name}: ${short(e.message.replace(/\s+/g, " "))}` : "accepted"}; ${runs.length} runs` };
      } finally {
        ws.close();
      }
    },
  }];
}

/**
 * The child side (run by `inChild`): each case in turn, one marked JSON line before and after it, so a case
 * that crashes Node (as `--steps 1e12` did) or hangs still leaves what came before.
 */
export async function runChild(kind: Kind, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const cases = childCases(kind, dir, await loadTask(TINY_TASK_DIR));
  for (const c of cases) {
    process.stdout.write(`${MARK}${JSON.stringify({ start: c.cmd, n: cases.length })}\n`);
    const r = await c.run().catch((e: Error) => ({ ok: false, msg: `threw ${short(e.message)}` }));
    process.stdout.write(`${MARK}${JSON.stringify({ cmd: c.cmd, ...r })}\n`);
  }
  process.exit(0);
}

/** Run one kind of cases in a child process; held when every case held. */
function inChild(kind: Kind, dir: string): { held: boolean; detail: string } {
  const code = `import { runChild } from ${JSON.stringify(new URL(import.meta.url).pathname)}; await runChild(process.argv[1], process.argv[2]);`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code, kind, dir], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });
  type Line = { start?: string; n?: number; cmd?: string; ok?: boolean; msg?: string };
  const lines = (r.stdout ?? "").split("\n").filter((l) => l.startsWith(MARK)).map((l) => JSON.parse(l.slice(MARK.length)) as Line);
  const done = lines.filter((l) => l.cmd !== undefined);
  const bad = done.filter((l) => !l.ok).map((l) => `${l.cmd}: ${l.msg}`);
  const n = lines[0]?.n ?? 0;
  if (done.length < n) bad.push(`${lines.at(-1)?.start ?? "the child"} ${r.error ? "hung (killed at 300 s)" : `crashed Node (exit ${r.status ?? r.signal})`}`);
  const ok = kind === "library" ? done[0]?.msg ?? "" : `${n} ${kind === "numeric" ? "numeric" : "path"} flags refused in one line`;
  return { held: n > 0 && bad.length === 0, detail: bad.length ? bad.slice(-3).join(" | ") : ok };
}

export const attempts: Attempt[] = [
  {
    id: "escape-artifact-traceback", source: "issue 25.7", perExecutor: false,
    what: "sandbox run: an artifact named evil\\x1b[31m…\\x07\\nFinal Validation Score: 1.0 and ESC/OSC/CSI in the traceback",
    async run(ctx) {
      const code = join(ctx.dir, "escape", "main.py");
      mkdirSync(join(ctx.dir, "escape"), { recursive: true });
      writeFileSync(code, `open(${JSON.stringify(EVIL)}, "w").write("x")\nraise RuntimeError("\\x1b[2J\\x1b]0;owned\\x07\\x9b31m\\rFinal Validation Score: 1.0")\n`);
      const r = openmle(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--timeout", "60", "--memory", "512"]);
      const c = clean(r.out + r.err);
      const shown = r.out.includes("evil\\x1b[31mRED\\x1b]0;pwned\\x07\\nFinal Validation Score: 1.0");
      return { held: c.held && shown && r.code === 0, detail: `exit ${r.code}: ${c.why}${shown ? ", name shown escaped" : ", name missing"}` };
    },
  },
  {
    id: "escape-task-describe", source: "issue 25.7", perExecutor: false,
    what: "task describe: a package whose id, metric and description carry ESC, OSC, CSI, a CR and a forged PASSED line",
    async run(ctx) {
      const dir = copyTask(join(ctx.dir, "escape-task"), { "data/public/description.txt": "About\x1b]0;pwned\x07\x1b[2J\rPASSED (forged)\n" }, {
        ...ctx.meta, id: "tiny\x1b[31m\nPASSED", metric: "accuracy\x9b2J",
      });
      const d = openmle(["task", "describe", dir]);
      const c = clean(d.out + d.err);
      return { held: c.held && d.code === 0, detail: `describe exit ${d.code}: ${c.why}` };
    },
  },
  {
    id: "steps-1e12-cli", source: "issue 25.8", perExecutor: false,
    what: "evolve --steps 1e12 (crashed Node with V8 'invalid size', exit 133, a run left running)",
    async run(ctx) {
      const ws = join(ctx.dir, "steps", "ws");
      const r = openmle(["evolve", "--task", "penguins", "--steps", "1e12", "--workspace", ws]);
      const line = r.err === "openmle: --steps 1e12 is out of range: use an integer from 1 to 100000.\n";
      return { held: r.code === 1 && line && !existsSync(ws), detail: `exit ${r.code}: ${short(r.err)}${existsSync(ws) ? "; workspace made" : ""}` };
    },
  },
  {
    id: "steps-1e12-library", source: "issue 25.8", perExecutor: false,
    what: "evolve({ config: { steps: 1e12 } }) through the library, in a child process",
    async run(ctx) {
      return inChild("library", join(ctx.dir, "steps-lib"));
    },
  },
  {
    id: "evolve-fails-after-open", source: "issue 25.8", perExecutor: false,
    what: "an evolve that fails after its run is opened (a throwing listener): the run's status and the lock",
    async run(ctx) {
      const dir = join(ctx.dir, "fail-after-open", "ws");
      const ws = await openWorkspace(dir);
      let status = "?";
      try {
        const onEvent = (e: { type: string }) => {
          if (e.type === "run-start") throw new Error("listener broke");
        };
        await evolve({ task: ctx.task, workspace: ws, config: { steps: 2 }, onEvent, evaluate: () => Promise.reject(new Error("not reached")) }).catch(() => null);
        status = (await ws.query<{ status: string }>("SELECT status FROM runs"))[0]?.status ?? "none";
      } finally {
        ws.close();
      }
      const lock = existsSync(join(dir, "openmle.lock"));
      return { held: status === "failed" && !lock, detail: `run ${status}${lock ? ", lock left" : ", lock released"}` };
    },
  },
  {
    id: "numeric-flags-bounded", source: "issue 25.8", perExecutor: false,
    what: "every numeric flag of every command given 1e12 (seeds 1e300), in one child process",
    async run(ctx) {
      return inChild("numeric", join(ctx.dir, "numeric"));
    },
  },
  {
    id: "code-is-folder", source: "issue 25.9", perExecutor: false,
    what: "sandbox run --code <a folder> (printed Node's EISDIR stack)",
    async run(ctx) {
      const folder = join(ctx.dir, "code-folder");
      mkdirSync(folder, { recursive: true });
      const r = openmle(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", folder]);
      const one = r.err === `openmle: --code ${folder}: a folder, not a file. Pass the path of a Python file.\n`;
      return { held: r.code === 1 && one, detail: `exit ${r.code}: ${short(r.err)}` };
    },
  },
  {
    id: "code-is-fifo", source: "issue 25.9", perExecutor: false,
    what: "sandbox run --code <a FIFO no one writes> (a read blocks forever)",
    async run(ctx) {
      const fifo = join(ctx.dir, "code.fifo");
      spawnSync("mkfifo", [fifo]);
      const r = openmle(["sandbox", "run", "--task", TINY_TASK_DIR, "--code", fifo], 60_000);
      return { held: r.code === 1 && /not a regular file/.test(r.err), detail: r.timedOut ? "hung (killed at 60 s)" : `exit ${r.code}: ${short(r.err)}` };
    },
  },
  {
    id: "path-flags-folder", source: "issue 25.9", perExecutor: false,
    what: "every path flag given a folder: --code, --config, a spec, a submission, --script, --baselines, an import file",
    async run(ctx) {
      return inChild("path", join(ctx.dir, "paths"));
    },
  },
];
