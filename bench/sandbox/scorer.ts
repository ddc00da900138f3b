// Scoring overhead (issue 17, goal 3): the persistent scorer (the default, one long-lived sandbox per
// task) against the per-node scorer (a fresh sandbox, interpreter and pandas import per submission),
// side by side on the same submissions, alternating which goes first. Goal: ≤ 50 ms per node.
// Usage: npm run build && node dist/bench/sandbox/scorer.js [--tasks penguins,seattle-weather,digits,sentiment] [--reps 10]
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

console.log(`load average before ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
const persistent = persistentScorer();
const perNode = sandboxedScorer();
const all = { per: [] as number[], pers: [] as number[] };
console.log("task               start   per-node  persistent   ratio");
try {
  for (const id of a.tasks!.split(",")) {
    const task = await resolveTask(id);
    const sub = join(task.publicDir, task.meta.files.sampleSubmission);
    const time = async (f: typeof perNode) => {
      const t = performance.now();
      const r = await f(task, sub);
      if (!r.ok) throw new Error(`${id}: the sample submission did not score: ${r.message}`);
      return performance.now() - t;
    };
    const start = await time(persistent); // starts the task's sandbox (not counted per node)
    const per: number[] = [];
    const pers: number[] = [];
    for (let i = 0; i < reps; i++) {
      if (i % 2 === 0) {
        per.push(await time(perNode));
        pers.push(await time(persistent));
      } else {
        pers.push(await time(persistent));
        per.push(await time(perNode));
      }
    }
    all.per.push(...per);
    all.pers.push(...pers);
    console.log(`${id.padEnd(16)} ${ms(start)} ${ms(median(per))} ${ms(median(pers))} ${(median(per) / median(pers)).toFixed(1).padStart(6)}×`);
  }
  const m = median(all.pers);
  console.log(`${"all".padEnd(16)} ${"".padStart(10)} ${ms(median(all.per))} ${ms(m)} ${(median(all.per) / m).toFixed(1).padStart(6)}×  (goal ≤ ${GOAL_MS} ms per node: ${m <= GOAL_MS ? "met" : "not met"})`);
} finally {
  await persistent.close();
}
console.log(`load average after ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
