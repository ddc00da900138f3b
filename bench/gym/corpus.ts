// The full corpus build (issue 27): candidates, accepted tasks, wall time and peak memory on this machine, the
// funnel table, and the suites by modality and task type.
// Usage: npx tsx bench/gym/corpus.ts [--dir DIR] [--jobs 2] [--rebuild] [--out bench/gym]
// Peak memory is the machine's memory in use (MemTotal - MemAvailable, sampled every second) above its level just
// before the build: the jailed harnesses are separate processes, so the Node process's own RSS would miss them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildCorpus, funnelTable, funnelText } from "../../kit/gym/index.js";

const { values: a } = parseArgs({
  options: {
    dir: { type: "string" }, jobs: { type: "string", default: "2" }, rebuild: { type: "boolean", default: false },
    out: { type: "string", default: "bench/gym" },
  },
});
const inUseMb = () => {
  const m = Object.fromEntries(
    readFileSync("/proc/meminfo", "utf8").split("\n").filter(Boolean).map((l) => {
      const [k, v] = l.split(":");
      return [k, Number.parseInt(v!, 10) / 1024];
    }),
  );
  return m.MemTotal! - m.MemAvailable!;
};
const base = inUseMb();
let peak = base;
const sampler = setInterval(() => (peak = Math.max(peak, inUseMb())), 1000);
const s = await buildCorpus({
  ...(a.dir ? { dir: a.dir } : {}),
  config: { jobs: Number(a.jobs), rebuild: a.rebuild },
  onEvent: (e) => {
    if (e.type === "candidate")
      process.stderr.write(`${e.done}/${e.total} ${e.candidate}: ${e.accepted} accepted, ${(e.ms / 1000).toFixed(1)} s\n`);
  },
});
clearInterval(sampler);
const table = funnelTable(s.records, s.index.tasks);
const stageMs = new Map<string, number>();
for (const r of s.records) stageMs.set(r.stage, (stageMs.get(r.stage) ?? 0) + r.ms);
const suites = new Map<string, number>();
for (const t of s.index.tasks) {
  const k = `${t.suite}|${t.modality}|${t.taskType}`;
  suites.set(k, (suites.get(k) ?? 0) + 1);
}
const result = {
  build_id: s.buildId, candidates: s.candidates, cached_candidates: s.cached, accepted: s.index.tasks.length,
  studies: new Set(s.index.tasks.map((t) => t.study)).size, wall_s: s.wallS, peak_memory_mb: peak - base,
  stage_seconds: Object.fromEntries([...stageMs].map(([k, v]) => [k, v / 1000])),
  suites: [...suites].map(([k, n]) => { const [suite, modality, taskType] = k.split("|"); return { suite, modality, task_type: taskType, tasks: n }; }),
  funnel: table,
};
writeFileSync(join(a.out!, "corpus.json"), `${JSON.stringify(result, null, 1)}\n`);
console.log(funnelText(table, s.buildId));
console.log(`\n${s.candidates} candidates (${s.cached} cached), ${s.index.tasks.length} accepted from ${result.studies} studies, ` +
  `wall ${s.wallS.toFixed(0)} s, peak memory ${(peak - base).toFixed(0)} MiB above the idle level`);
console.log("stage seconds (summed over jobs):", Object.entries(result.stage_seconds).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", "));
for (const r of result.suites) console.log(`${r.suite} ${r.modality} ${r.task_type}: ${r.tasks}`);
