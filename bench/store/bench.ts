/**
 * Store benchmark (issue 2): ingest 1,000,000 experience-card rows through the appender, then
 * time an experience-board aggregate over one 10,000-node run.
 * Run: npm run build && node dist/bench/store/bench.js [rows]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace } from "../../kit/store/index.js";
import { createRng } from "../../kit/util/rng.js";

const ROWS = Number(process.argv[2] ?? 1_000_000);
const RUN_NODES = 10_000;
const families = ["sklearn", "xgboost", "neural_net", "ensemble", "nlp", "cv", "unknown"];
const ops = ["draft", "improve", "debug", "crossover"];
const statuses = ["success", "success", "success", "runtime_error", "timeout", "scoring_failure"];

function cardsFor(runId: string, n: number, seed: number) {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => {
    const status = statuses[rng.int(statuses.length)]!;
    const ok = status === "success";
    return {
      run_id: runId,
      node_id: `${runId}-${i}`,
      operator: ops[rng.int(4)],
      parents: i ? [`${runId}-${rng.int(i)}`] : [],
      generation_id: Math.floor(i / 20),
      score: ok ? rng.next() : null,
      fitness: ok ? rng.next() : null,
      status,
      error_signature: ok ? null : status,
      sandbox_time_s: rng.next() * 60,
      prompt_tokens: rng.int(20_000),
      completion_tokens: rng.int(4_000),
      imports: ["numpy", "pandas"],
      method_family: families[rng.int(families.length)],
      novelty: rng.next(),
      delta_vs_parent: ok ? rng.next() - 0.5 : null,
      plan: "bench plan",
    };
  });
}

const dir = mkdtempSync(join(tmpdir(), "openmle-bench-store-"));
const ws = await openWorkspace(join(dir, "ws"));
try {
  // 1. Ingest: 100 runs of 10,000 cards each, built in memory first (generation is not timed).
  const runs = Math.ceil(ROWS / RUN_NODES);
  const batches = Array.from({ length: runs }, (_, r) => cardsFor(`run${r}`, Math.min(RUN_NODES, ROWS - r * RUN_NODES), r));
  const t0 = performance.now();
  for (const b of batches) await ws.append("cards", b);
  const ingestS = (performance.now() - t0) / 1000;
  const [{ n }] = await ws.query<{ n: number }>("SELECT count(*) AS n FROM cards");

  // 2. Board aggregate for one run (per-family stats + best node per family + failures), best of 5.
  const board = `
    WITH c AS (SELECT * FROM cards WHERE run_id = 'run7')
    SELECT f.method_family, f.nodes, f.ok, f.best, f.mean_score, b.node_id AS best_node, coalesce(e.failures, 0) AS failures
    FROM (SELECT method_family, count(*) AS nodes, count(score) AS ok, max(score) AS best, avg(score) AS mean_score
          FROM c GROUP BY method_family) f
    LEFT JOIN (SELECT method_family, arg_max(node_id, score) AS node_id FROM c WHERE score IS NOT NULL GROUP BY 1) b USING (method_family)
    LEFT JOIN (SELECT method_family, count(*) AS failures FROM c WHERE status <> 'success' GROUP BY 1) e USING (method_family)
    ORDER BY best DESC`;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await ws.query(board);
    times.push(performance.now() - t);
  }
  const result = {
    rows: n,
    ingestSeconds: Number(ingestS.toFixed(2)),
    rowsPerSecond: Math.round(n / ingestS),
    boardMs: { best: Number(Math.min(...times).toFixed(1)), median: Number(times.sort((a, b) => a - b)[2]!.toFixed(1)) },
    goals: { ingestSeconds: 3, boardMs: 50 },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
}
