// What the package jail costs (issue 25.5): loading a paper-format package (metric.py inspected and probed,
// data profiled) and `task check` on built-in packages, each in the jail and on the host (trusted, with the
// jail's bubblewrap pointed at a missing binary), side by side in one run, alternating which goes first.
//   npx tsx bench/security/package-jail-cost.ts [--rounds 3] [--tasks cars,penguins,...]
import { join } from "node:path";
import {
  BUILTIN_IDS, checkTask, configurePackageJail, loadTask, resolveTask, trustPackages, type TaskPackage,
} from "../../kit/gym/index.js";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const rounds = Number(arg("rounds", "3"));
const taskIds = arg("tasks", BUILTIN_IDS.join(",")).split(",");
const PAPER = join(import.meta.dirname, "..", "..", "kit", "gym", "test-helpers", "paper-task");

const jailed = () => configurePackageJail({ bwrap: "bwrap" });
const host = () => {
  trustPackages(true);
  configurePackageJail({ bwrap: "/nonexistent/bwrap" });
};

async function time(mode: () => void, fn: () => Promise<unknown>): Promise<number> {
  mode();
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

const tasks: TaskPackage[] = [];
for (const id of taskIds) tasks.push(await resolveTask(id));
const cases: [string, () => Promise<unknown>][] = [
  ["load paper-format package", () => loadTask(PAPER)],
  ...tasks.map((t): [string, () => Promise<unknown>] => [`task check ${t.meta.id}`, () => checkTask(t)]),
];
const sums = new Map<string, { jail: number; host: number }>();
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of cases) {
    const s = sums.get(name) ?? { jail: 0, host: 0 };
    // Alternate the order so a warming cache or a load spike does not favour one side.
    if (r % 2 === 0) {
      s.jail += await time(jailed, fn);
      s.host += await time(host, fn);
    } else {
      s.host += await time(host, fn);
      s.jail += await time(jailed, fn);
    }
    sums.set(name, s);
    process.stderr.write(`round ${r + 1}/${rounds}: ${name}\n`);
  }
}
jailed();
const rows = [...sums].map(([name, s]) => [name, s.host / rounds, s.jail / rounds] as const);
const total = rows.reduce((a, [, h, j]) => [a[0]! + h, a[1]! + j], [0, 0]);
console.log(`| case | host s | jail s | jail / host |\n|---|---|---|---|`);
for (const [name, h, j] of rows) console.log(`| ${name} | ${h.toFixed(2)} | ${j.toFixed(2)} | ${(j / h).toFixed(2)}× |`);
const checks = rows.filter(([n]) => n.startsWith("task check"));
const ch = checks.reduce((a, [, h, j]) => [a[0]! + h, a[1]! + j], [0, 0]);
console.log(`| all task checks | ${ch[0]!.toFixed(2)} | ${ch[1]!.toFixed(2)} | ${(ch[1]! / ch[0]!).toFixed(2)}× |`);
console.log(`| everything | ${total[0]!.toFixed(2)} | ${total[1]!.toFixed(2)} | ${(total[1]! / total[0]!).toFixed(2)}× |`);
console.log(`\nrounds ${rounds}, goal: jail / host ≤ 1.30×`);
