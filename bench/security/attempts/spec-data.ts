// A task spec's text turned into code (issue 25, break 2), and builds that fail half-way (issue 25, build 5):
// the spec's fields with text that closed the `r'''…'''` literal prepare.py used to embed them in.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  buildTask, checkTask, packageHash, packagePaths, PrepareError, pythonHelper, TaskSpecError, type TaskPackage,
} from "../../../kit/gym/index.js";
import { hostileSpecs, type HostileSpecs } from "../../../kit/gym/test-helpers/hostile-spec.js";
import type { Attempt, AttemptContext } from "../attempt.js";

const short = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 90);
const name = (e: unknown) => (e instanceof Error ? e.constructor.name : "no error");

/** The hostile specs and their builds, once per run (the check and hash attempts reuse the packages). */
const built = new Map<string, Promise<{ h: HostileSpecs; tasks: (TaskPackage | Error)[] }>>();
function buildHostile(ctx: AttemptContext) {
  let b = built.get(ctx.dir);
  if (!b) {
    const h = hostileSpecs(join(ctx.dir, "spec-data"));
    b = Promise.all(h.specs.map((s) => buildTask(s.spec, { outDir: s.outDir }).catch((e: Error) => e))).then((tasks) => ({ h, tasks }));
    built.set(ctx.dir, b);
  }
  return b;
}
const ran = (h: HostileSpecs) => h.markers.filter((m) => existsSync(m)).map((m) => m.split("/").pop());

/** A raw table and a spec whose prepare step fails (the target is no column of the table). */
function failingSpec(dir: string) {
  const table = join(dir, "rows.csv");
  writeFileSync(table, "y,f\n" + Array.from({ length: 30 }, (_, i) => `${i % 2},${i}`).join("\n") + "\n");
  return { id: "half", table, target: "y", metric: "accuracy", split: { kind: "random" as const } };
}

export const attempts: Attempt[] = [
  {
    id: "payload-build", source: "issue 25.2",
    what: "`''' + os.system(...) + r'''` in every string field prepare's config holds (table, target, id, drop, ...)",
    perExecutor: false,
    async run(ctx) {
      const { h, tasks } = await buildHostile(ctx);
      const template = readFileSync(pythonHelper("prepare_template.py"));
      const errors = tasks.filter((t): t is Error => t instanceof Error);
      const verbatim = tasks.every((t) => !(t instanceof Error) && readFileSync(packagePaths(t.dir).prepare).equals(template));
      const hits = ran(h);
      return {
        held: hits.length === 0 && errors.length === 0 && verbatim,
        detail: `${tasks.length - errors.length}/${tasks.length} built${errors.length ? ` (${short(errors[0])})` : ""}; ` +
          `prepare.py ${verbatim ? "is the template" : "differs from the template"}; ${hits.length ? `ran: ${hits.join(", ")}` : "no payload ran"}`,
      };
    },
  },
  {
    id: "payload-refused", source: "issue 25.2", what: "the payload in id, metric and modality (validation forbids it there)", perExecutor: false,
    async run(ctx) {
      const { h } = await buildHostile(ctx);
      const out = join(ctx.dir, "spec-data", "refused");
      const errs = await Promise.all(h.refused.map((s) => buildTask(s, { outDir: out }).then(() => null, (e: unknown) => e)));
      const clean = errs.filter((e) => e instanceof TaskSpecError).length;
      return { held: clean === errs.length && !existsSync(out) && ran(h).length === 0, detail: `${clean}/${errs.length} refused with TaskSpecError; nothing at --out: ${!existsSync(out)}` };
    },
  },
  {
    id: "payload-check", source: "issue 25.2", what: "`task check` (prepare.py run twice more, metric checks) on the packages built from those specs", perExecutor: false,
    async run(ctx) {
      const { h, tasks } = await buildHostile(ctx);
      const ok = tasks.filter((t): t is TaskPackage => !(t instanceof Error));
      if (!ok.length) return { held: false, detail: "nothing was built to check" };
      const reports = await Promise.all(ok.map((t) => checkTask(t)));
      const det = reports.filter((r) => r.checks.find((c) => c.name === "prepare_deterministic")?.status === "pass").length;
      const hits = ran(h);
      return { held: hits.length === 0, detail: `${det}/${reports.length} prepare_deterministic pass; ${hits.length ? `ran: ${hits.join(", ")}` : "no payload ran"}` };
    },
  },
  {
    id: "config-tamper", source: "issue 25.2", what: "a package copy whose utils/prepare_config.json was edited passes for the original (same package hash)", perExecutor: false,
    async run(ctx) {
      const { tasks } = await buildHostile(ctx);
      const t = tasks.find((x): x is TaskPackage => !(x instanceof Error));
      if (!t) return { held: false, detail: "nothing was built" };
      const copy = join(ctx.dir, "spec-data", "tampered");
      cpSync(t.dir, copy, { recursive: true });
      const cfg = packagePaths(copy).prepareConfig;
      writeFileSync(cfg, readFileSync(cfg, "utf8").replace(/"seed": \d+/, '"seed": 7'));
      const [a, b] = [packageHash(t.dir), packageHash(copy)];
      return { held: a !== b, detail: `hash ${a} → ${b}` };
    },
  },
  {
    id: "half-built-package", source: "issue 25 build 5",
    what: "a build whose prepare fails: at a fresh --out, and with --force over an existing package",
    perExecutor: false,
    async run(ctx) {
      const dir = join(ctx.dir, "spec-data", "half");
      const spec = failingSpec(join(ctx.dir, "spec-data"));
      const fresh = await buildTask({ ...spec, target: "nope" }, { outDir: join(dir, "fresh") }).then(() => null, (e: unknown) => e);
      const kept = join(dir, "kept");
      await buildTask(spec, { outDir: kept });
      const before = packageHash(kept);
      const over = await buildTask({ ...spec, target: "nope" }, { outDir: kept, overwrite: true }).then(() => null, (e: unknown) => e);
      const left = readdirSync(dir).filter((f) => f !== "kept");
      const intact = packageHash(kept) === before;
      return {
        held: fresh instanceof PrepareError && over instanceof PrepareError && left.length === 0 && intact,
        detail: `${name(fresh)} / ${name(over)}; left beside: [${left.join(", ")}]; existing package ${intact ? "intact" : "CHANGED"}`,
      };
    },
  },
];
