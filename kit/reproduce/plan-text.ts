// The plan and the catalogue for people: formatted counts and durations, one line per arm.
import { EXPERIMENTS } from "./catalogue.js";
import { REPRODUCE_PRESETS, type ExperimentSpec } from "./experiment-spec.js";
import { planExperiment, type ExperimentPlan } from "./plan.js";

const int = (n: number) => n.toLocaleString("en-US");
/** "1 cell", "3 cells". */
const count = (n: number, word: string) => `${int(n)} ${word}${n === 1 ? "" : "s"}`;
/** Minutes as "45 min", "3.2 h". */
export function formatMinutes(min: number): string {
  return min < 90 ? `${Math.max(1, Math.round(min))} min` : `${(min / 60).toFixed(1)} h`;
}

/** One row of `openmle reproduce --list`. */
export interface CatalogueRow {
  readonly id: string;
  readonly title: string;
  readonly paperItem: string;
  readonly kind: string;
  readonly presets: string[];
  readonly sharesCellsWith: string | null;
  /** Estimated laptop-preset minutes on 2 cores (null: no laptop preset, or it runs nothing of its own). */
  readonly laptopMinutes: number | null;
}

export function catalogueRows(
  experiments: readonly ExperimentSpec[] = EXPERIMENTS,
  opts: { readonly corpusBuilt?: boolean } = {},
): CatalogueRow[] {
  return experiments.map((e) => ({
    id: e.id,
    title: e.title,
    paperItem: e.paperItem,
    kind: e.kind,
    presets: REPRODUCE_PRESETS.filter((p) => e.presets[p]),
    sharesCellsWith: e.sharesCellsWith ?? null,
    laptopMinutes: e.presets.laptop ? planExperiment(e, "laptop", opts).totals.laptopMinutes : null,
  }));
}

export function catalogueText(rows: readonly CatalogueRow[]): string {
  return rows
    .map((r) => {
      const cost = r.sharesCellsWith
        ? `lays out ${r.sharesCellsWith}'s cells`
        : r.laptopMinutes === null
          ? "reference only"
          : `laptop ≈ ${formatMinutes(r.laptopMinutes)} on 2 cores`;
      const presets = r.presets.join(", ") || "none";
      return `${r.id.padEnd(20)} ${r.title}\n${"".padEnd(20)} ${r.paperItem}; presets ${presets}; ${cost}`;
    })
    .join("\n");
}

/** The dry run: what would run, arm by arm, and the totals. */
export function planText(spec: ExperimentSpec, plan: ExperimentPlan): string {
  const head = `${spec.id} (${plan.preset} preset): ${spec.title}\n  ${spec.paperItem}. ${spec.question}`;
  const owner = plan.sharesCellsWith;
  if (owner)
    return (
      `${head}\n  runs nothing of its own: it lays out the cells of ${owner} (${spec.layout} layout); ` +
      `\`openmle reproduce ${spec.id} --preset ${plan.preset} --workspace DIR\` runs the ones missing from DIR ` +
      `first (their plan: openmle reproduce ${owner} --preset ${plan.preset} --dry-run)`
    );
  const p = spec.presets[plan.preset]!;
  const per = (arm: string) => plan.cells.filter((c) => c.arm === arm);
  const arms = p.arms.map((a) => {
    const cs = per(a.id);
    const baselines = cs.reduce((t, c) => t + (c.baselines ?? 0), 0);
    const what = [
      a.policy && `policy ${a.policy}`,
      a.harness && `harness ${a.harness}`,
      Object.keys(a.settings).length ? `settings ${JSON.stringify(a.settings)}` : "",
      Object.keys(a.teacherEvolve).length ? `teacher runs ${JSON.stringify(a.teacherEvolve)}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    return (
      `  arm ${a.id.padEnd(16)} ${a.label}${what ? ` (${what})` : ""}: ${count(cs.length, "cell")}, ` +
      count(
        cs.reduce((t, c) => t + c.programs, 0),
        "program",
      ) +
      (baselines ? ` (${int(baselines)} of them trivial baselines, the static worst bound: one per task)` : "")
    );
  });
  const t = plan.totals;
  const cost = [
    t.laptopMinutes !== null
      ? `≈ ${formatMinutes(t.laptopMinutes)} on 2 cores` +
        (t.first.length
          ? `, of which first ${t.first.map((f) => `${f.what}: ${formatMinutes(f.minutes)}`).join(", ")}`
          : "")
      : "",
    t.gpuHours !== null
      ? `${int(t.gpuHours)} sandbox GPU hours (${p.hoursPerTask} h per run; ` +
        `the paper capped the GPU at ${p.gpuCapGiB} GB)`
      : "",
    plan.preset === "paper" && spec.kind !== "search"
      ? "trainer GPU time: on the external trainer (kit/erl/README.md)"
      : "",
  ]
    .filter(Boolean)
    .join("; ");
  const tasks =
    p.tasks.from === "none"
      ? p.candidates
        ? `a sample of ${p.candidates.length} candidates`
        : "every candidate of the manifest"
      : `${int(t.tasks)} tasks (${describeTasks(spec, plan)})`;
  return [
    head,
    `  tasks: ${tasks}; repeats: ${t.repeats}` +
      (spec.kind === "funnel" ? "" : `; ${sizeWords(spec, p.steps, p.groupsPerStep, p.group)}`),
    ...arms,
    `  total: ${count(t.cells, "cell")}, ${count(t.programs, "program")}${cost ? `; ${cost}` : ""}`,
    ...(spec.laptopNote && plan.preset !== "paper" ? [`  note: ${spec.laptopNote}`] : []),
    ...runsWith(spec, plan),
  ].join("\n");
}

function sizeWords(spec: ExperimentSpec, steps: number, groupsPerStep: number, group: number): string {
  if (spec.kind === "rl") return `${count(steps, "trainer step")} of ${groupsPerStep} × ${group} programs`;
  return `${count(steps, "step")} per run`;
}

function describeTasks(spec: ExperimentSpec, plan: ExperimentPlan): string {
  const tasks = spec.presets[plan.preset]!.tasks;
  if (tasks.from === "builtin") return `built-in: ${tasks.ids.join(", ")}`;
  if (tasks.from === "suite") return `the first ${tasks.count} of suite:${tasks.suite} by id`;
  return "MLE-bench Lite, imported with openmle task import-mlebench";
}

/** What the run needs beyond the workspace: each endpoint arm's server, and the imported MLE-bench Lite packages. */
function runsWith(spec: ExperimentSpec, plan: ExperimentPlan): string[] {
  const p = spec.presets[plan.preset]!;
  const names = [...new Set(p.arms.flatMap((a) => (a.policy?.startsWith("endpoint:") ? [a.policy.slice(9)] : [])))];
  const flags = [
    ...names.map((n) => `--endpoint ${n}=URL`),
    ...(p.tasks.from === "mlebench-lite" ? ["--mlebench-dir DIR"] : []),
  ];
  return flags.length ? [`  runs with: ${flags.join(" ")} (.devcontainer/README.md walks through it)`] : [];
}
