import type { Command } from "commander";
import {
  draftProbes,
  policyKl,
  resolvePolicyParams,
  shiftSentence,
  storedProbes,
  type PolicyKl,
  type ProbeSet,
} from "../erl/index.js";
import { BUILTIN_IDS, resolveTask } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { EVOLVE_MAX } from "../evo/index.js";
import { formatNumber } from "./format.js";
import { intFlag, SEED_RANGE } from "./numeric-flag.js";
import { output, UsageError } from "./run-cli.js";
import { TASK_LIST_HELP, taskListFlag } from "./task-list-flag.js";

interface DiffFlags {
  workspace?: string;
  runs?: string;
  tasks?: string;
  draftOn?: string;
  drafts: string;
  seed: string;
  top: string;
  json?: boolean;
}

/** Drafts per task as many as evolve's steps; the table as long as a terminal screen holds sensibly. */
const DIFF_RANGES = {
  drafts: { min: 1, max: EVOLVE_MAX.steps },
  top: { min: 1, max: 1000 },
} as const;

const ids = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Where the probes came from, in words. */
function sourceWords(set: ProbeSet, stored: boolean, drafts: number): string {
  if (stored) return `the programs of ${set.sources.length} stored run${set.sources.length === 1 ? "" : "s"}`;
  return (
    `${drafts} fresh drafts of A on each of ${set.sources.length} task${set.sources.length === 1 ? "" : "s"} ` +
    `(sampled, not executed)`
  );
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** 4 significant digits; below 1e-12 (rounding noise of identical distributions) shown as 0. */
const nats = (x: number) => (Math.abs(x) < 1e-12 ? "0" : formatNumber(Number(x.toPrecision(4))));

function human(a: string, b: string, r: PolicyKl, set: ProbeSet, source: string, top: number): string {
  const perProgram = set.programs ? (r.meanKl * r.probes) / set.programs : 0;
  const lines = [
    `KL(A ‖ B) = ${nats(r.meanKl)} nats per decision over ${r.probes} probe decisions of ${set.programs} ` +
      `programs (≈ ${nats(perProgram)} nats per program); mean TV ${nats(r.meanTv)}`,
    `A = ${a}, B = ${b}; probes: ${source}`,
  ];
  if (set.skipped.length)
    lines.push(
      `${set.skipped.length} programs left out (not written by the grammar policy, or a trace that no longer ` +
        `fits its context): --json lists them`,
    );
  const rows = r.situations.slice(0, top);
  if (rows.length === 0) {
    lines.push(r.probes ? "no decision moved: A and B agree on every probe" : "no probe decisions to compare");
    return lines.join("\n");
  }
  lines.push("", `      KL      TV   share       n  situation: top mover p_A → p_B`);
  for (const s of rows)
    lines.push(
      `${nats(s.kl).padStart(8)} ${nats(s.tv).padStart(7)} ${pct(s.share).padStart(7)} ${String(s.count).padStart(7)}` +
        `  ${shiftSentence(s)}`,
    );
  if (r.situations.length > rows.length)
    lines.push(`(${r.situations.length - rows.length} more situations: --top N or --json)`);
  return lines.join("\n");
}

/** 1. resolve A and B; 2. gather probes (stored runs, or fresh drafts of A); 3. score; 4. print. */
async function diff(aRef: string, bRef: string, o: DiffFlags, ws: Workspace | undefined): Promise<void> {
  const drafts = intFlag("drafts", o.drafts, DIFF_RANGES.drafts);
  const seed = intFlag("seed", o.seed, SEED_RANGE);
  const top = intFlag("top", o.top, DIFF_RANGES.top);
  const a = await resolvePolicyParams(aRef, ws);
  const b = await resolvePolicyParams(bRef, ws);
  const stored = !!(o.runs || o.tasks);
  let set: ProbeSet;
  if (stored) set = await storedProbes(ws!, { runs: ids(o.runs), tasks: ids(o.tasks) });
  else {
    const taskIds = o.draftOn ? await taskListFlag(o.draftOn) : [...BUILTIN_IDS];
    const tasks = [];
    for (const id of taskIds) tasks.push(await resolveTask(id));
    set = await draftProbes(a.params, tasks, { drafts, seed });
  }
  const r = policyKl(a.params, b.params, set.probes);
  const source = sourceWords(set, stored, drafts);
  const json = {
    a: a.checkpoint,
    b: b.checkpoint,
    meanKl: r.meanKl,
    meanTv: r.meanTv,
    probes: r.probes,
    programs: set.programs,
    klPerProgram: set.programs ? (r.meanKl * r.probes) / set.programs : 0,
    source: { kind: stored ? "stored" : "drafts", ids: set.sources, ...(stored ? {} : { drafts, seed }) },
    skipped: set.skipped,
    situations: r.situations.slice(0, top).map((s) => ({ ...s, sentence: shiftSentence(s) })),
  };
  output(!!o.json, json, () => human(aRef, bRef, r, set, source, top));
}

export function registerPolicy(program: Command): void {
  const policy = program.command("policy").description("Inspect grammar-policy params (built-ins and checkpoints)");
  policy
    .command("diff")
    .description(
      "What was learned: how far params B moved from A, as the mean KL(p_A ‖ p_B) per decision over probe " +
        "decisions, and the decision situations that moved most, in words. A and B: default | uniform | " +
        "default@1 | a checkpoint name (with --workspace) | a params .json file. Probes: the programs of stored " +
        "runs (--runs / --tasks, with --workspace), replayed in their contexts; without them, fresh drafts of " +
        "A on the built-in tasks (or --draft-on), sampled and not executed, so it works on an empty workspace " +
        "(drafts see an empty context, so weights on context labels show only with stored runs)",
    )
    .argument("<A>", "the reference params (KL is taken under A's probabilities)")
    .argument("<B>", "the params compared with A")
    .option("--workspace <dir>", "workspace folder (checkpoints, stored runs)")
    .option("--runs <ids>", "probe with the programs of these stored runs (comma-separated run ids)")
    .option("--tasks <ids>", "probe with the programs of every ended stored run of these tasks (comma-separated)")
    .option(
      "--draft-on <tasks>",
      `without --runs/--tasks: the tasks to draft on (default: every built-in task); ` + TASK_LIST_HELP,
    )
    .option("--drafts <n>", "without --runs/--tasks: drafts sampled per task", "8")
    .option("--seed <n>", "without --runs/--tasks: seed of the drafts", "0")
    .option("--top <n>", "situations listed", "10")
    .option("--json", "print the result as JSON (every listed situation with p_A, p_B per option)")
    .action(async (aRef: string, bRef: string, o: DiffFlags) => {
      if ((o.runs || o.tasks) && !o.workspace)
        throw new UsageError("--runs and --tasks read stored runs: pass --workspace DIR too.");
      if ((o.runs || o.tasks) && o.draftOn)
        throw new UsageError("--draft-on is for fresh drafts: pass it or --runs/--tasks, not both.");
      if (!o.workspace) return diff(aRef, bRef, o, undefined);
      const ws = await openWorkspace(o.workspace, { readOnly: true });
      try {
        await diff(aRef, bRef, o, ws);
      } finally {
        ws.close();
      }
    });
}
