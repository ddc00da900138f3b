// Scoring overhead (issue 17, goal 3): the persistent scorer (the default, one long-lived sandbox per
// task) against the per-node scorer (a fresh sandbox, interpreter and pandas import per submission),
// side by side on the same submissions, alternating which goes first. Goal: ≤ 50 ms per node.
// Wall time per node (median) and CPU time per node (mean; the kit's process plus the scoring
// sandboxes: waited-for children for the per-node scorer, the persistent sandboxes' cgroups).
// Usage: npm run build && node dist/bench/sandbox/scorer.js [--tasks penguins,seattle-weather,digits,sentiment] [--reps 10]
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { resolveTask } from "../../kit/gym/index.js";
import { persistentScorer, sandboxedScorer } from "../../kit/sandbox/index.js";

const { values: a } = parseArgs({ options: { tasks: { type: "string", default: "penguins,seattle-weather,digits,sentiment" }, reps: { type: "string", default: "10" } } });
const GOAL_MS = 50;
const reps = Number(a.reps);
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (x: number) => `${x.toFixed(1)} ms`.padStart(10);
const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
/** CPU ms so far of this process, its waited-for children (clock ticks of 10 ms) and this process's persistent scoring sandboxes (cgroups named `<pid>-…`). */
function cpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // f[13], f[14]: cutime, cstime
  const children = (Number(f[13]) + Number(f[14])) * 10;
  const u = process.cpuUsage();
  let sandboxes = 0;
  const root = "/sys/fs/cgroup/cpuacct/openmle";
  try {
    for (const d of readdirSync(root)) if (d.startsWith(`${process.pid}-`)) sandboxes += Number(readFileSync(`${root}/${d}/cpuacct.usage`, "utf8")) / 1e6;
  } catch {
    /* no cgroup v1 cpuacct: CPU of the persistent sandboxes is not counted */
  }
  return (u.user + u.system) / 1000 + children + sandboxes;
}

console.log(`load average before ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
const persistent = persistentScorer();
const perNode = sandboxedScorer();
const all = { per: [] as number[], pers: [] as number[], perCpu: [] as number[], persCpu: [] as number[] };
console.log("task               start   per-node  persistent   ratio | CPU: per-node  persistent");
try {
  for (const id of a.tasks!.split(",")) {
    const task = await resolveTask(id);
    const sub = join(task.publicDir, task.meta.files.sampleSubmission);
    const per: number[] = [];
    const pers: number[] = [];
    const perCpu: number[] = [];
    const persCpu: number[] = [];
    const time = async (f: typeof perNode, wall?: number[], cpu?: number[]) => {
      const [t, c] = [performance.now(), cpuMs()];
      const r = await f(task, sub);
      if (!r.ok) throw new Error(`${id}: the sample submission did not score: ${r.message}`);
      wall?.push(performance.now() - t);
      cpu?.push(cpuMs() - c);
      return performance.now() - t;
    };
    const start = await time(persistent); // starts the task's sandbox (not counted per node)
    for (let i = 0; i < reps; i++) {
      if (i % 2 === 0) {
        await time(perNode, per, perCpu);
        await time(persistent, pers, persCpu);
      } else {
        await time(persistent, pers, persCpu);
        await time(perNode, per, perCpu);
      }
    }
    all.per.push(...per);
    all.pers.push(...pers);
    all.perCpu.push(...perCpu);
    all.persCpu.push(...persCpu);
    console.log(`${id.padEnd(16)} ${ms(start)} ${ms(median(per))} ${ms(median(pers))} ${(median(per) / median(pers)).toFixed(1).padStart(6)}× | ${ms(mean(perCpu))} ${ms(mean(persCpu))}`);
  }
  const m = median(all.pers);
  console.log(`${"all".padEnd(16)} ${"".padStart(10)} ${ms(median(all.per))} ${ms(m)} ${(median(all.per) / m).toFixed(1).padStart(6)}× | ${ms(mean(all.perCpu))} ${ms(mean(all.persCpu))}`);
  console.log(`goal ≤ ${GOAL_MS} ms per node: wall ${m <= GOAL_MS ? "met" : "not met"} (${m.toFixed(1)} ms), CPU ${mean(all.persCpu) <= GOAL_MS ? "met" : "not met"} (${mean(all.persCpu).toFixed(1)} ms)`);
} finally {
  await persistent.close();
}
console.log(`load average after ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
