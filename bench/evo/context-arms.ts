// Benchmark (f): harnesses × context labels on/off on held-out corpus tasks, at equal step budget, the grammar
// policy with its default params and the warm sandbox. Usage:
//   npx tsx bench/evo/context-arms.ts [--arms openmle:on,openmle:off,aira-evo:on,aira-evo:off,aide:on,mcts:on] \
//     [--seeds 1,2] [--steps 20] [--workers 2] [--tasks ID,...] [--out bench/evo/results-context] [--table-only]
// Tasks (default): from the held-out suite's baseline run (bench/gym/baseline.json), one text task, the four
// time-series and seven tabular tasks of distinct candidates that ran fastest there; their candidates are built
// with `task build-corpus --only` when missing (no full corpus needed). The rule reads speed and modality only,
// never a score. One workspace per arm: no execution record is reused across arms. Appends one JSON line per run
// to <out>/runs.jsonl (resumable) and writes <out>/context-arms.md (bench/evo/context-table.ts).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gainShare, runBaselines, loadTrajectories } from "../../kit/eval/index.js";
import { evolve, type EvoNode } from "../../kit/evo/index.js";
import { buildCorpus, corpusPaths, loadTask } from "../../kit/gym/index.js";
import { createCheckpointPolicy, grammar } from "../../kit/policy/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { contextTable, type ArmRun } from "./context-table.js";

const { values: a } = parseArgs({
  options: {
    arms: { type: "string", default: "openmle:on,openmle:off,aira-evo:on,aira-evo:off,aide:on,mcts:on" },
    seeds: { type: "string", default: "1,2" },
    steps: { type: "string", default: "20" },
    workers: { type: "string", default: "2" },
    tasks: { type: "string" },
    out: { type: "string", default: "bench/evo/results-context" },
    workspace: { type: "string", default: "workspaces/bench-context" },
    "table-only": { type: "boolean", default: false },
  },
});
mkdirSync(a.out!, { recursive: true });
const runsFile = join(a.out!, "runs.jsonl");
const read = () =>
  existsSync(runsFile)
    ? readFileSync(runsFile, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ArmRun)
    : [];

/** The default task rule (header): fastest held-out baseline tasks per modality, distinct candidates. */
function defaultTasks(): { tasks: string[]; candidates: string[] } {
  const ids = (JSON.parse(readFileSync("data/corpus/candidates.json", "utf8")) as { id: string }[]).map((c) => c.id);
  const rows = (
    JSON.parse(readFileSync("bench/gym/baseline.json", "utf8")) as {
      rows: { task: string; modality: string; wall_s: number; valid: number }[];
    }
  ).rows.sort((x, y) => x.wall_s - y.wall_s);
  const quota: Record<string, number> = { text: 1, time_series: 4, tabular: 7 };
  const tasks: string[] = [];
  const candidates: string[] = [];
  for (const r of rows) {
    const cand = ids.filter((i) => r.task.startsWith(i)).sort((x, y) => y.length - x.length)[0]!;
    if ((quota[r.modality] ?? 0) > 0 && !candidates.includes(cand) && r.valid > 0) {
      quota[r.modality]!--;
      tasks.push(r.task);
      candidates.push(cand);
    }
  }
  return { tasks, candidates };
}

const picked = a.tasks ? { tasks: a.tasks.split(","), candidates: [] } : defaultTasks();
const dir = corpusPaths().tasks;
const missing = picked.candidates.filter((_, i) => !existsSync(join(dir, picked.tasks[i]!)));
if (missing.length && !a["table-only"]) await buildCorpus({ config: { only: missing, jobs: 2 } });
const blFile = join(a.out!, "baselines.json");
const baselines: Record<string, { trivial: number | null; reference: number | null }> = existsSync(blFile)
  ? JSON.parse(readFileSync(blFile, "utf8"))
  : {};
const arms = a.arms!.split(",").map((s) => {
  const [harness, ctx] = s.split(":") as ["openmle" | "aira-evo" | "aide" | "mcts", "on" | "off"];
  return { harness, ctx, key: `${harness}:${ctx}` };
});
const hash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

/** A non-Draft node beats the best draft on validation and on the hidden test (signed scores). */
function nonDraftBeatsDraft(nodes: readonly EvoNode[], higher: boolean): boolean {
  const sign = higher ? 1 : -1;
  const drafts = nodes.filter((n) => n.operator === "draft" && n.fitness !== null && n.status === "success");
  if (!drafts.length) return false;
  const best = drafts.reduce((x, y) => (y.fitness! > x.fitness! ? y : x));
  return nodes.some(
    (n) =>
      n.operator !== "draft" &&
      n.status === "success" &&
      n.fitness !== null &&
      n.fitness > best.fitness! &&
      n.testScore !== null &&
      best.testScore !== null &&
      sign * n.testScore > sign * best.testScore,
  );
}

if (!a["table-only"]) {
  const executor = new WarmExecutor({ onWarning: (m) => console.log(`warning: ${m}`) });
  const done = new Set(read().map((r) => `${r.task}/${r.arm}/${r.seed}`));
  for (const taskId of picked.tasks) {
    const task = await loadTask(join(dir, taskId));
    if (!baselines[taskId]) {
      const b = await runBaselines(task).catch(() => ({ trivial: null, reference: null }));
      baselines[taskId] = { trivial: b.trivial, reference: b.reference };
      writeFileSync(blFile, `${JSON.stringify(baselines, null, 2)}\n`);
    }
    for (const seed of a.seeds!.split(",").map(Number))
      for (const arm of arms) {
        if (done.has(`${taskId}/${arm.key}/${seed}`)) continue;
        const params = grammar.defaultGrammarParams();
        const policy =
          arm.ctx === "on"
            ? createCheckpointPolicy(params, "default")
            : createCheckpointPolicy(grammar.withoutContextFeatures(params), "default/context-off");
        const ws = await openWorkspace(`${a.workspace!}-${arm.harness}-${arm.ctx}`);
        try {
          const t0 = Date.now();
          const res = await evolve({
            task,
            policy,
            workspace: ws,
            // Several workers share the workspace's connection: the sandbox stores nothing itself then.
            evaluate: (job) => runSandbox({ ...job, workspace: Number(a.workers) === 1 ? ws : undefined, executor }),
            config: {
              harness: arm.harness,
              seed,
              steps: Number(a.steps),
              workers: Number(a.workers),
              perRunTimeoutS: 300,
            },
          });
          const [traj] = await loadTrajectories(ws, [res.runId]);
          const share = traj ? gainShare(traj) : null;
          const c = res.champion;
          const row: ArmRun = {
            task: taskId,
            modality: task.meta.modality,
            metric: task.meta.metric,
            higherIsBetter: task.meta.higherIsBetter,
            arm: arm.key,
            seed,
            nodes: res.nodes.length,
            validRate: res.summary.validRate,
            bestValid: c?.validScore ?? null,
            test: c?.testScore ?? null,
            champion: c ? hash(c.code) : null,
            championOperator: c?.operator ?? null,
            totalGain: share?.total_gain ?? 0,
            icShare: share?.improve_crossover_share ?? null,
            nonDraftBeats: nonDraftBeatsDraft(res.nodes, task.meta.higherIsBetter),
            wallS: (Date.now() - t0) / 1000,
            runId: res.runId,
          };
          appendFileSync(runsFile, `${JSON.stringify(row)}\n`);
          console.log(
            `${taskId} ${arm.key} seed ${seed}: valid ${row.bestValid} test ${row.test} ` +
              `(${row.championOperator}, IC share ${row.icShare?.toFixed(2) ?? "-"}, ${row.wallS.toFixed(0)} s)`,
          );
        } finally {
          ws.close();
        }
      }
  }
  await executor.close();
}
const md = contextTable(
  read(),
  baselines,
  arms.map((x) => x.key),
);
writeFileSync(join(a.out!, "context-arms.md"), md);
console.log(md);
