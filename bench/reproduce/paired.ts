// Paired per-task comparison of a finished search experiment's arms (bench/reproduce/README.md): per task with
// baselines, each arm's mean credit over repeats (max(0, normalised), 0 without a champion: the table's unit), the
// difference A − B per task at identical seeds, and a 95 % bootstrap interval over tasks (kit/eval pairedBootstrap).
// Reads the cells back (a finished cell is never re-executed).
// Usage: npx tsx bench/reproduce/paired.ts --workspace workspaces/rp-mfh --id model-fixed-harness --preset laptop \
//          --recorded-loop learning-armA --pairs g1:uniform,g2:uniform,g2:g1,default:uniform
import { parseArgs } from "node:util";
import { credit } from "../../kit/erl/index.js";
import { pairedBootstrap } from "../../kit/eval/index.js";
import { experimentById, resolveTaskSet, runSearchExperiment, useRecordedLoop, type ReproducePreset } from "../../kit/reproduce/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const { values: a } = parseArgs({
  options: { workspace: { type: "string" }, id: { type: "string" }, preset: { type: "string", default: "laptop" }, "recorded-loop": { type: "string" }, loop: { type: "string" }, pairs: { type: "string" } },
});
if (!a.workspace || !a.id || !a.pairs) throw new Error("pass --workspace, --id and --pairs A:B,...");
const spec = experimentById(a.id);
const preset = a.preset as ReproducePreset;
const ws = await openWorkspace(a.workspace);
try {
  const loopId = a["recorded-loop"] ? (await useRecordedLoop(ws, a["recorded-loop"])).loopId : a.loop;
  const tasks = await resolveTaskSet(spec.presets[preset]!.tasks);
  const cells = await runSearchExperiment({ workspace: ws, spec, preset, tasks, ...(loopId ? { loopId } : {}) });
  if (cells.some((c) => !c.cached)) console.log("note: some cells were not finished before this call and ran now");
  const perTask = (arm: string) => {
    const m = new Map<string, number>();
    for (const t of new Set(cells.filter((c) => c.normalisable).map((c) => c.task))) {
      const of = cells.filter((c) => c.arm === arm && c.task === t);
      if (of.length) m.set(t, of.reduce((s, c) => s + credit(c.testScore !== null, c.normalized), 0) / of.length);
    }
    return m;
  };
  const f = (x: number) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(3);
  const arms = spec.presets[preset]!.arms.map((x) => x.id);
  const ts = [...perTask(arms[0]!).keys()].sort();
  console.log(`| task | ${arms.join(" | ")} |\n|---|${arms.map(() => "---").join("|")}|`);
  for (const t of ts) console.log(`| ${t} | ${arms.map((x) => perTask(x).get(t)?.toFixed(3) ?? "–").join(" | ")} |`);
  console.log("\n| A − B | mean | 95 % interval | A ahead / behind / level | n tasks |\n|---|---|---|---|---|");
  for (const pair of a.pairs.split(",")) {
    const [x, y] = pair.split(":") as [string, string];
    const [px, py] = [perTask(x), perTask(y)];
    const d = ts.filter((t) => px.has(t) && py.has(t)).map((t) => px.get(t)! - py.get(t)!);
    const ci = pairedBootstrap(d);
    const eps = 1e-9;
    console.log(`| ${x} − ${y} | ${ci ? f(ci.mean) : "–"} | ${ci ? `[${f(ci.lo)}, ${f(ci.hi)}]` : "–"} | ${d.filter((v) => v > eps).length} / ${d.filter((v) => v < -eps).length} / ${d.filter((v) => Math.abs(v) <= eps).length} | ${d.length} |`);
  }
} finally {
  ws.close();
}
