// Warm start (issue 28): what a program forked from a zygote might try against the zygote, its siblings and
// the programs after it. Runs on the warm backend only (perExecutor false: it makes its own WarmExecutor); the
// sandbox group's attempts also run on it as the backend "warm".
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runSandbox, WarmExecutor } from "../../../kit/sandbox/index.js";
import { hostPidsWith, lastJsonLine } from "../../../kit/sandbox/test-helpers.js";
import { WARM_ADVERSARIAL } from "../../../kit/sandbox/warm-programs.js";
import type { Attempt, AttemptContext } from "../attempt.js";

const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };
let shared: WarmExecutor | undefined;
const warm = () => (shared ??= new WarmExecutor());
const run = (ctx: AttemptContext, code: string) =>
  runSandbox({ task: ctx.task, code, limits, executor: warm(), jobsDir: join(ctx.dir, "warm-jobs"), rerun: true });
const report = (stdout: string): Record<string, unknown> => {
  try {
    return lastJsonLine(stdout);
  } catch {
    return {};
  }
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const attempts: Attempt[] = [
  {
    id: "read-sibling", source: "issue 28", what: "list the zygote's jobs folder, walk /, other processes' roots for a sibling's file", perExecutor: false,
    async run(ctx) {
      mkdirSync(join(ctx.dir, "warm-jobs", "sibling-job"), { recursive: true });
      writeFileSync(join(ctx.dir, "warm-jobs", "sibling-job", "sibling-secret.txt"), "secret");
      const found = report((await run(ctx, WARM_ADVERSARIAL.readSibling("sibling-job", "sibling-secret.txt"))).stdoutTail).found;
      return { held: same(found, []), detail: `found ${JSON.stringify(found)}` };
    },
  },
  {
    id: "attack-zygote", source: "issue 28", what: "SIGKILL and PTRACE_ATTACH pids 1–2000 and kill(-1); the zygote must live on", perExecutor: false,
    async run(ctx) {
      await run(ctx, "print(1)");
      const before = warm().zygotePids();
      const rep = report((await run(ctx, WARM_ADVERSARIAL.attackZygote())).stdoutTail);
      const after = (await run(ctx, "print('after')")).stdoutTail;
      const held = same(rep.signalled, []) && same(rep.traced, []) && same(warm().zygotePids(), before) && after === "after\n";
      return { held, detail: `saw pids ${JSON.stringify(rep.visible)}, signalled ${JSON.stringify(rep.signalled)}, zygote ${same(warm().zygotePids(), before) ? "unchanged" : "changed"}` };
    },
  },
  {
    id: "poison-next", source: "issue 28", what: "patch numpy, poison sys.modules and builtins, write sitecustomize.py where imports look", perExecutor: false,
    async run(ctx) {
      const wrote = report((await run(ctx, WARM_ADVERSARIAL.poisonModules())).stdoutTail).wrote;
      const next = report((await run(ctx, WARM_ADVERSARIAL.checkModules())).stdoutTail);
      const held = same(wrote, []) && same(next, { mean: 1.5, pandas: "pandas", open_orig: false, tmp: [] });
      return { held, detail: `wrote ${JSON.stringify(wrote)}; next program saw ${JSON.stringify(next)}` };
    },
  },
  {
    id: "undo-isolation", source: "issue 28", what: "unshare user/mount/net/pid, mount, setns, clone3; capabilities left", perExecutor: false,
    async run(ctx) {
      const rep = report((await run(ctx, WARM_ADVERSARIAL.namespaceCalls())).stdoutTail);
      const allowed = Object.entries(rep).filter(([, v]) => v === "allowed").map(([k]) => k);
      const caps = (rep.caps as string[] | undefined) ?? [];
      const held = Object.keys(rep).length > 0 && allowed.length === 0 && caps.every((c) => /^0+$/.test(c)) && rep.uid === 1000;
      return { held, detail: allowed.length ? `allowed ${allowed.join(", ")}` : `all refused, caps ${caps.join("/")}, uid ${rep.uid}` };
    },
  },
  {
    id: "leave-work", source: "issue 28", what: "a thread, a child and a double-forked daemon meant to outlive the program", perExecutor: false,
    async run(ctx) {
      const token = `warmbench${Date.now()}`;
      const r = await run(ctx, WARM_ADVERSARIAL.leaveWork(token));
      await new Promise((res) => setTimeout(res, 2000));
      const alive = hostPidsWith(token).length;
      const markers = r.workDir ? readdirSync(r.workDir).filter((f) => f.startsWith("alive")) : [];
      await shared?.close();
      shared = undefined;
      return { held: alive === 0 && markers.length === 0, detail: `${alive} processes, markers ${JSON.stringify(markers)}` };
    },
  },
];
