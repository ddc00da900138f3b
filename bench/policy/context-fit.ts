// Measures the default context-label weights (kit/policy/grammar/context-weights.ts) on the built-in core suite,
// never the held-out suite. Usage:
//   npx tsx bench/policy/context-fit.ts [--tasks suite:core] [--harnesses openmle,aide] [--seeds 1] [--steps 20] \
//     [--workers 2] [--timeout 300] [--out bench/policy/context-fit] [--write]
// --timeout sets the per-program limit (s); a run under another limit than 300 s is keyed <task>/<harness>/<seed>/t<s>,
// so tight-limit runs (where families fail and Debug chains repeat) add to the same samples.
// 1. Exploration: evolve every task × harness × seed with the hand-set logits and every context weight 0
//    (version 3 params, so each decision records the labels its options carried, none of them acting).
// 2. Each labelled decision gets the outcome of the node it wrote: a Draft its execution-grounded reward
//    (sandboxReward against the run's earlier successes, 0 on failure); an Improve or Crossover 1 when it beat
//    its best parent on validation, else 0; a Debug 1 when it ran to a score, else 0.
// 3. fitContextWeights (the log ratio of mean outcomes with / without the label, shrunk and clipped).
// Samples go to <out>/samples.jsonl (resumable by task/harness/seed); the fit to <out>/fit.json and a table on
// stdout; --write rewrites the table of context-weights.ts (its header comment, which says what ran, is kept).
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve, sandboxReward, type EvoNode } from "../../kit/evo/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { createGrammarPolicy, grammar, type GrammarChoice } from "../../kit/policy/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { benchTasks } from "../task-list.js";

const { values: a } = parseArgs({
  options: {
    tasks: { type: "string", default: "suite:core" },
    harnesses: { type: "string", default: "openmle,aide" },
    seeds: { type: "string", default: "1" },
    steps: { type: "string", default: "20" },
    workers: { type: "string", default: "2" },
    timeout: { type: "string", default: "300" },
    out: { type: "string", default: "bench/policy/context-fit" },
    write: { type: "boolean", default: false },
  },
});
mkdirSync(a.out!, { recursive: true });
const samplesFile = join(a.out!, "samples.jsonl");
type Sample = { run: string; operator: string; choice: GrammarChoice; outcome: number };
const lines = existsSync(samplesFile) ? readFileSync(samplesFile, "utf8").trim().split("\n").filter(Boolean) : [];
const done = new Set(lines.map((l) => (JSON.parse(l) as Sample).run));

/** The outcome of a node for the decisions that wrote it (step 2 above). */
function outcome(n: EvoNode, nodes: readonly EvoNode[]): number {
  const good = n.status === "success" && n.fitness !== null;
  if (n.operator === "debug") return good ? 1 : 0;
  if (n.operator === "draft") {
    const earlier = nodes.filter((m) => m.step < n.step && m.fitness !== null && m.status === "success");
    return sandboxReward(
      good ? n.fitness : null,
      earlier.map((m) => m.fitness!),
    );
  }
  const pf = n.parents.map((p) => nodes.find((m) => m.nodeId === p)?.fitness ?? null).filter((f) => f !== null);
  return good && pf.length > 0 && n.fitness! > Math.max(...(pf as number[])) ? 1 : 0;
}

const explore = { version: 3 as const, logits: grammar.handSetGrammarParams().logits, optionWeights: {} };
const executor = new WarmExecutor({ onWarning: (m) => console.log(`warning: ${m}`) });
const t0 = Date.now();
for (const taskId of await benchTasks(a.tasks!)) {
  const task = await resolveTask(taskId);
  for (const harness of a.harnesses!.split(",") as ("openmle" | "aide")[])
    for (const seed of a.seeds!.split(",").map(Number)) {
      const run = `${taskId}/${harness}/${seed}${a.timeout === "300" ? "" : `/t${a.timeout}`}`;
      if (done.has(run)) continue;
      const inner = createGrammarPolicy(explore);
      const byNode = new Map<string, readonly GrammarChoice[]>();
      const policy = {
        ...inner,
        async propose(...args: Parameters<typeof inner.propose>) {
          const out = await inner.propose(...args);
          if (args[2].nodeId) byNode.set(args[2].nodeId, out.choices);
          return out;
        },
      };
      const dir = mkdtempSync(join(tmpdir(), "openmle-ctx-fit-"));
      const ws = await openWorkspace(join(dir, "ws"));
      try {
        const r0 = Date.now();
        const res = await evolve({
          task,
          policy,
          workspace: ws,
          // Several workers write nodes on the workspace's one connection: the sandbox then stores nothing itself.
          evaluate: (job) => runSandbox({ ...job, workspace: Number(a.workers) === 1 ? ws : undefined, executor }),
          config: {
            harness,
            seed,
            steps: Number(a.steps),
            workers: Number(a.workers),
            perRunTimeoutS: Number(a.timeout),
          },
        });
        let n = 0;
        for (const node of res.nodes) {
          const y = outcome(node, res.nodes);
          for (const choice of byNode.get(node.nodeId) ?? [])
            if (choice.optionFeatures) {
              appendFileSync(samplesFile, `${JSON.stringify({ run, operator: node.operator, choice, outcome: y })}\n`);
              n++;
            }
        }
        console.log(
          `${run}: ${res.nodes.length} nodes, ${n} labelled decisions, ${((Date.now() - r0) / 1000).toFixed(0)} s`,
        );
      } finally {
        ws.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
}
await executor.close();
const samples = readFileSync(samplesFile, "utf8")
  .trim()
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Sample);
const fitted = grammar.fitContextWeights(samples);
const runs = [...new Set(samples.map((s) => s.run))].sort();
writeFileSync(
  join(a.out!, "fit.json"),
  `${JSON.stringify({ date: new Date().toISOString(), samples: samples.length, runs, fitted }, null, 1)}\n`,
);
const f3 = (x: number) => x.toFixed(3);
const mins = ((Date.now() - t0) / 60000).toFixed(1);
console.log(`\n${samples.length} labelled decisions from ${runs.length} runs (${mins} min)`);
console.log("| key | label | n with | n without | mean with | mean without | weight |\n|---|---|---|---|---|---|---|");
for (const f of fitted)
  console.log(
    `| ${f.key} | ${f.label} | ${f.nWith} | ${f.nWithout} | ${f3(f.meanWith)} | ${f3(f.meanWithout)} | ${f3(f.weight)} |`,
  );
if (a.write) {
  // The header comment is written by hand (which runs, under which limits); only the table is regenerated.
  const file = "kit/policy/grammar/context-weights.ts";
  const head = readFileSync(file, "utf8").split("export const CONTEXT_WEIGHTS")[0];
  const body = JSON.stringify(grammar.weightsTable(fitted), null, 2);
  const type = "Readonly<Record<string, Readonly<Record<string, number>>>>";
  writeFileSync(file, `${head}export const CONTEXT_WEIGHTS: ${type} = ${body};\n`);
  console.log(`wrote ${file} (${runs.length} runs, ${samples.length} decisions): check its header comment`);
}
