// A registered experiment's result as the benchmark reports it (issue 60): the plan, every arm's measures, the
// registered decision, then secondary paired readings of every other pair of arms on every measure (descriptive: the
// registration fixed one decision, these are not it), per modality. The read goes through kit/experiment, so it is a
// logged look in the workspace it reads.
//   npx tsx bench/erl/registered.ts --registered exp-d5916ae40a44 --workspace workspaces/registry
//   npx tsx bench/erl/registered.ts --registered exp-d5916ae40a44 --recorded registrations   # the exported copy
import {
  decide, experimentHistory, readExperimentResults, verdictLine, type CellOutcome, type Measure,
} from "../../kit/experiment/index.js";
import { taskDirections, taskModalities } from "../../kit/gym/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d = "") => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const id = arg("registered");
if (!id) throw new Error("pass --registered ID (npx openmle experiment list --workspace W shows them)");
const recorded = arg("recorded");
const ws = recorded ? await openRecordedRuns(recorded) : await openWorkspace(arg("workspace", "workspaces/registry"));
const pct = (x: number | null | undefined) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)} %`);
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "–" : x.toFixed(3));
const show = (m: Measure, x: number | null | undefined) => (m === "human_rank" || m === "normalized" || m === "median_score" ? f3(x) : pct(x));

try {
  const r = await readExperimentResults(ws, id, { command: `bench/erl/registered.ts --registered ${id}` });
  const h = (await experimentHistory(ws)).find((x) => x.registration.registrationId === id)!;
  console.log(`# ${r.label}: ${r.plan.name}\n\n${r.plan.question}\n`);
  console.log(`registered ${r.registration.registeredAt.toISOString()} at kit ${r.registration.kitCommit.slice(0, 12)}; ` +
    `plan ${r.registration.planHash.slice(0, 12)}; ${r.registration.powerLine}`);
  if (!r.run || !r.summary) { console.log("no completed run"); process.exit(0); }
  console.log(`run ${r.run.runId} ${r.run.status} ${r.run.finishedAt?.toISOString() ?? ""} at kit ${r.run.kitCommit.slice(0, 12)}; ` +
    `${r.cells.length} cells on ${r.plan.tasks.length} tasks; looks ${h.looks}\n`);
  const ms = r.plan.measures;
  console.log(`| arm | ${ms.join(" | ")} |\n|---|${ms.map(() => "---|").join("")}`);
  for (const a of r.plan.arms) console.log(`| ${a.name} | ${ms.map((m) => show(m, r.summary!.measures[a.name]?.[m])).join(" | ")} |`);
  console.log(`\nregistered decision: ${verdictLine(r.summary.verdict)}\n`);

  const dirs = await taskDirections(ws);
  const hib = (t: string) => dirs.get(t) !== false;
  const of = (arm: string, cells: readonly CellOutcome[] = r.cells) => cells.filter((c) => c.arm === arm);
  const arms = r.plan.arms.map((a) => a.name);
  const pairs = arms.flatMap((a, i) => arms.slice(i + 1).map((b) => [b, a] as const));
  console.log("secondary paired readings (two-sided 95 %, tasks resampled; descriptive, not the registered decision):\n");
  console.log("| A − B | measure | mean [95 %] | tasks |\n|---|---|---|---|");
  for (const [a, b] of pairs)
    for (const m of ms) {
      const v = decide({ ...r.plan.decision, measure: m, comparison: [a, b], direction: "two-sided" }, of(a), of(b), hib, r.plan.seed);
      const iv = v.interval;
      console.log(`| ${a} − ${b} | ${m} | ${iv ? `${f3(iv.mean)} [${f3(iv.lo)}, ${f3(iv.hi)}]` : "–"} | ${iv?.n ?? 0} |`);
    }
  const modality = await taskModalities(ws);
  const mods = [...new Set(r.plan.tasks.map((t) => modality.get(t.id) ?? "unknown"))].sort();
  const [a, b] = r.plan.decision.comparison;
  console.log(`\nthe decision's pair per modality (${a} − ${b}, ${r.plan.decision.measure}, two-sided 95 %):\n`);
  console.log("| modality | tasks | mean [95 %] |\n|---|---|---|");
  for (const m of mods) {
    const cells = r.cells.filter((c) => (modality.get(c.taskId) ?? "unknown") === m);
    const v = decide({ ...r.plan.decision, direction: "two-sided" }, of(a, cells), of(b, cells), hib, r.plan.seed);
    const iv = v.interval;
    console.log(`| ${m} | ${new Set(cells.map((c) => c.taskId)).size} | ${iv ? `${f3(iv.mean)} [${f3(iv.lo)}, ${f3(iv.hi)}]` : "–"} |`);
  }
} finally {
  ws.close();
}
