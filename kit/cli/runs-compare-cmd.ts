// `openmle runs compare`: two sets of runs on the hidden test, seeds as pairs (kit/eval runs-compare.ts).
import type { Command } from "commander";
import { compareRuns, loadRunOutcomes, type RunOutcome, type RunsComparison } from "../eval/index.js";
import { assertNotConfirm, peekConfirmIds } from "../gym/index.js";
import { openWorkspace } from "../store/index.js";
import { formatScore, formatTable } from "./format.js";
import { numberFlag } from "./numeric-flag.js";
import { output, UsageError } from "./run-cli.js";

/** The fields a set selector may name, as `key=value[|value…]`, several joined by ",". */
const FIELDS = { harness: "harness", policy: "policy", task: "task_id", run: "run_id" } as const;
type Field = keyof typeof FIELDS;

/** A selector (`harness=openmle,task=cars`) as a predicate over runs; a bad one is a UsageError naming the flag. */
export function parseSelector(flag: string, text: string): (r: RunOutcome) => boolean {
  const terms = text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (!terms.length) throw new UsageError(`--${flag} is empty: give key=value, e.g. --${flag} harness=openmle`);
  const tests = terms.map((t) => {
    const [k, v] = [t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1)];
    if (!t.includes("=") || !(k in FIELDS) || !v)
      throw new UsageError(
        `--${flag} "${t}": expected key=value with key one of ${Object.keys(FIELDS).join(", ")} ` +
          `(alternatives joined by "|", e.g. --${flag} harness=openmle|evo-max)`,
      );
    const want = new Set(v.split("|"));
    return (r: RunOutcome) => want.has(String(r[FIELDS[k as Field]]));
  });
  return (r) => tests.every((f) => f(r));
}

/** Load both sets (B from `bWorkspace` when given), refuse sealed runs, and compare them. */
export async function runsCompare(o: {
  workspace: string;
  bWorkspace?: string;
  a: string;
  b: string;
  level?: number;
}): Promise<RunsComparison> {
  const load = async (dir: string) => {
    const ws = await openWorkspace(dir, { readOnly: true });
    try {
      return await loadRunOutcomes(ws);
    } finally {
      ws.close();
    }
  };
  const runsA = await load(o.workspace);
  const runsB = o.bWorkspace ? await load(o.bWorkspace) : runsA;
  const a = runsA.filter(parseSelector("a", o.a));
  const b = runsB.filter(parseSelector("b", o.b));
  for (const [flag, set] of [
    ["a", a],
    ["b", b],
  ] as const)
    if (!set.length) throw new UsageError(`--${flag} "${flag === "a" ? o.a : o.b}" selects no finished run`);
  assertNotConfirm(
    [...a, ...b].map((r) => r.task_id),
    peekConfirmIds(),
  );
  return compareRuns(a, b, o.level === undefined ? {} : { level: o.level });
}

/** The human view: the pairs, then the interval and how to read it. */
export function renderComparison(c: RunsComparison, a: string, b: string): string {
  const i = c.interval;
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const fmt = (x: number) => (c.scale === "relative" ? pct(x) : formatScore(x));
  const head = `A = ${a}, B = ${b}: ${c.pairs.length} pairs (task, seed) on ${c.tasks} task(s)`;
  const skipped = [
    c.failed.a || c.failed.b ? `without a valid submission: A ${c.failed.a}, B ${c.failed.b}` : "",
    c.unpaired.a || c.unpaired.b ? `without a partner: A ${c.unpaired.a}, B ${c.unpaired.b}` : "",
  ].filter(Boolean);
  const rows = c.pairs.map((p) => ({
    task: p.task_id,
    seed: p.seed ?? "—",
    "A run": p.a_run,
    "B run": p.b_run,
    "A test": formatScore(p.a),
    "B test": formatScore(p.b),
    "A − B (> 0: A better)": formatScore(p.d),
  }));
  return [
    head + (skipped.length ? ` (left out: ${skipped.join("; ")})` : ""),
    "",
    rows.length ? formatTable(rows) : "(no pair with both scores)",
    "",
    i
      ? `A − B on the hidden test (${c.scale === "relative" ? "relative to B, averaged per task" : "metric units"}): ` +
        `${fmt(i.mean)} [${fmt(i.lo)}, ${fmt(i.hi)}] (${Math.round(100 * c.level)} % paired bootstrap over ` +
        `${c.scale === "relative" ? "tasks" : "seeds"}); ` +
        `A ahead in ${c.wins}, behind in ${c.losses}, level in ${c.ties}`
      : "no interval: no pair has both scores",
    i && (i.lo > 0 || i.hi < 0)
      ? `the interval excludes 0: ${i.lo > 0 ? "A" : "B"} is better on the hidden test at this level`
      : i
        ? "the interval includes 0: no difference shown at this level"
        : "",
  ].join("\n");
}

export function registerRunsCompare(runs: Command): void {
  runs
    .command("compare")
    .description(
      "Two sets of runs on the hidden test, seeds as pairs: each (task, seed) both ran, the champions' test " +
        "scores, and a paired bootstrap interval on A − B",
    )
    .requiredOption("--workspace <dir>", "workspace folder (of both sets, or of A with --b-workspace)")
    .requiredOption("--a <selector>", "set A: key=value[,key=value] on harness, policy, task, run ('|' = or)")
    .requiredOption("--b <selector>", "set B, the same way")
    .option("--b-workspace <dir>", "workspace holding set B (default: --workspace)")
    .option("--level <p>", "coverage of the interval", "0.95")
    .option("--json", "machine-readable output")
    .action(
      async (o: { workspace: string; bWorkspace?: string; a: string; b: string; level: string; json?: boolean }) => {
        const level = numberFlag("level", o.level, { min: 0.5, max: 0.999 });
        const c = await runsCompare({ ...o, level });
        output(!!o.json, c, () => renderComparison(c, o.a, o.b));
      },
    );
}
