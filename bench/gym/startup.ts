// Where the corpus build's time goes (issue 27): the cost of one jailed interpreter start-up with the imports the
// funnel's harnesses make, beside a bare start, so the build's per-stage seconds can be read as start-up vs work.
// Usage: npx tsx bench/gym/startup.ts [--reps 5] [--out bench/gym]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PYTHON } from "../../kit/gym/index.js";
import { runJailed } from "../../kit/jail/index.js";

const { values: a } = parseArgs({ options: { reps: { type: "string", default: "5" }, out: { type: "string", default: "bench/gym" } } });
const cases: [string, string[]][] = [
  ["python, no imports", [PYTHON, "-c", "pass"]],
  ["python + numpy + pandas (run_prepare, task_profile, metric_harness, task_checks)", [PYTHON, "-c", "import numpy, pandas"]],
  ["python + pandas + sklearn models (headroom.py)", [PYTHON, "-c", "import pandas, sklearn.ensemble, sklearn.linear_model, sklearn.feature_extraction.text"]],
  ["Rscript, no packages (export.R)", ["/usr/bin/Rscript", "-e", "invisible(0)"]],
];
const rows: { case: string; mean_s: number; min_s: number }[] = [];
for (const [name, command] of cases) {
  const times: number[] = [];
  for (let i = 0; i < Number(a.reps); i++) {
    const t0 = performance.now();
    const r = await runJailed({ command, mounts: [], limits: { timeoutS: 120, memoryMb: 4096 } });
    if (r.exitCode !== 0) throw new Error(`${name}: exit ${r.exitCode}: ${r.stderr.slice(0, 300)}`);
    times.push((performance.now() - t0) / 1000);
  }
  rows.push({ case: name, mean_s: times.reduce((s, x) => s + x, 0) / times.length, min_s: Math.min(...times) });
}
writeFileSync(join(a.out!, "startup.json"), `${JSON.stringify(rows, null, 1)}\n`);
console.log("| jailed start-up | mean s | min s |\n|---|---|---|");
for (const r of rows) console.log(`| ${r.case} | ${r.mean_s.toFixed(2)} | ${r.min_s.toFixed(2)} |`);
