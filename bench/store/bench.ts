/**
 * Store benchmark (issues 2 and 17): ingest experience-card rows through the kit's write path and,
 * alternating in the same run, the floor: DuckDB inserting the very same rows with one SQL
 * statement (`INSERT INTO cards SELECT * FROM mem.cards`, from an in-memory copy) into the same
 * kind of file-backed table of a fresh workspace. Then an experience-board aggregate over one
 * 10,000-node run.
 * Run: npm run build && node dist/bench/store/bench.js [rows] [repeats]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace, type Columns, type Row, type Workspace } from "../../kit/store/index.js";
import { createRng } from "../../kit/util/rng.js";

const ROWS = Number(process.argv[2] ?? 1_000_000);
const REPEATS = Number(process.argv[3] ?? 2);
const RUN_NODES = 10_000;
const GOAL_RATIO = 1.5;
const families = ["sklearn", "xgboost", "neural_net", "ensemble", "nlp", "cv", "unknown"];
const ops = ["draft", "improve", "debug", "crossover"];
const statuses = ["success", "success", "success", "runtime_error", "timeout", "scoring_failure"];

/** One run's cards as columns (17 of the 27 columns filled, two list columns). */
function cardsFor(runId: string, n: number, seed: number): Columns {
  const rng = createRng(seed);
  const c = {
    run_id: new Array<string>(n), node_id: new Array<string>(n), operator: new Array<string>(n),
    parents: new Array<string[]>(n), generation_id: new Int32Array(n), score: new Array<number | null>(n),
    fitness: new Array<number | null>(n), status: new Array<string>(n), error_signature: new Array<string | null>(n),
    sandbox_time_s: new Float64Array(n), prompt_tokens: new Int32Array(n), completion_tokens: new Int32Array(n),
    imports: new Array<string[]>(n), method_family: new Array<string>(n), novelty: new Float64Array(n),
    delta_vs_parent: new Array<number | null>(n), plan: new Array<string>(n),
  };
  for (let i = 0; i < n; i++) {
    const status = statuses[rng.int(statuses.length)]!;
    const ok = status === "success";
    c.run_id[i] = runId;
    c.node_id[i] = `${runId}-${i}`;
    c.operator[i] = ops[rng.int(4)]!;
    c.parents[i] = i ? [`${runId}-${rng.int(i)}`] : [];
    c.generation_id[i] = Math.floor(i / 20);
    c.score[i] = ok ? rng.next() : null;
    c.fitness[i] = ok ? rng.next() : null;
    c.status[i] = status;
    c.error_signature[i] = ok ? null : status;
    c.sandbox_time_s[i] = rng.next() * 60;
    c.prompt_tokens[i] = rng.int(20_000);
    c.completion_tokens[i] = rng.int(4_000);
    c.imports[i] = ["numpy", "pandas"];
    c.method_family[i] = families[rng.int(families.length)]!;
    c.novelty[i] = rng.next();
    c.delta_vs_parent[i] = ok ? rng.next() - 0.5 : null;
    c.plan[i] = "bench plan";
  }
  return c;
}

function toRows(cols: Columns): Row[] {
  const names = Object.keys(cols);
  const n = cols[names[0]!]!.length;
  return Array.from({ length: n }, (_, r) => Object.fromEntries(names.map((k) => [k, cols[k]![r]])));
}

const root = mkdtempSync(join(tmpdir(), "openmle-bench-store-"));
let nextDir = 0;
const freshDir = () => join(root, `ws${nextDir++}`);
const seconds = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
};
/** Wall and CPU seconds (this process, DuckDB's threads included) of `fn`. */
const measure = async (fn: () => Promise<unknown>) => {
  const c = process.cpuUsage();
  const wall = await seconds(fn);
  const cpu = process.cpuUsage(c);
  return { wall, cpu: (cpu.user + cpu.system) / 1e6 };
};

// 0. The rows, built in memory first (generation is not timed): 100 runs of 10,000 cards.
const runs = Math.ceil(ROWS / RUN_NODES);
const batches = Array.from({ length: runs }, (_, r) => cardsFor(`run${r}`, Math.min(RUN_NODES, ROWS - r * RUN_NODES), r));

/** The kit's columnar path: one `appendColumns` per run of 10,000 cards. */
async function kitColumns(ws: Workspace) {
  await ws.transaction(async () => {
    for (const b of batches) await ws.appendColumns("cards", b);
  });
}

/** The floor: one INSERT ... SELECT of the same rows from an in-memory copy (copy not timed). */
async function floor(source: string): Promise<{ wall: number; cpu: number }> {
  const ws = await openWorkspace(freshDir());
  try {
    await ws.exec(`ATTACH '${join(source, "openmle.duckdb")}' AS src (READ_ONLY)`);
    await ws.exec("ATTACH ':memory:' AS mem");
    await ws.exec("CREATE TABLE mem.cards AS SELECT * FROM src.cards");
    await ws.exec("DETACH src");
    return await measure(() => ws.exec("INSERT INTO cards SELECT * FROM mem.cards"));
  } finally {
    ws.close();
  }
}

try {
  // 1. Ingest, alternating kit path and floor.
  const kit: { wall: number; cpu: number }[] = [];
  const floors: { wall: number; cpu: number }[] = [];
  let source = "";
  for (let i = 0; i < REPEATS; i++) {
    const dir = freshDir();
    const ws = await openWorkspace(dir);
    kit.push(await measure(() => kitColumns(ws)));
    ws.close();
    source = dir;
    floors.push(await floor(source));
  }
  // The row-object path (`append(rows)`, converting to columns inside), once, for reference.
  const rowBatches = batches.map(toRows);
  const rowsWs = await openWorkspace(freshDir());
  const rowsS = await seconds(async () => {
    for (const b of rowBatches) await rowsWs.append("cards", b);
  });
  rowsWs.close();

  // 2. Board aggregate for one run (per-family stats + best node per family + failures), best of 5.
  const ws = await openWorkspace(source);
  const [{ n }] = await ws.query<{ n: number }>("SELECT count(*) AS n FROM cards");
  const board = `
    WITH c AS (SELECT * FROM cards WHERE run_id = 'run7')
    SELECT f.method_family, f.nodes, f.ok, f.best, f.mean_score, b.node_id AS best_node, coalesce(e.failures, 0) AS failures
    FROM (SELECT method_family, count(*) AS nodes, count(score) AS ok, max(score) AS best, avg(score) AS mean_score
          FROM c GROUP BY method_family) f
    LEFT JOIN (SELECT method_family, arg_max(node_id, score) AS node_id FROM c WHERE score IS NOT NULL GROUP BY 1) b USING (method_family)
    LEFT JOIN (SELECT method_family, count(*) AS failures FROM c WHERE status <> 'success' GROUP BY 1) e USING (method_family)
    ORDER BY best DESC`;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push((await seconds(() => ws.query(board))) * 1000);
  ws.close();

  const best = (xs: number[]) => Math.min(...xs);
  const wall = (xs: { wall: number }[]) => best(xs.map((x) => x.wall));
  const cpu = (xs: { cpu: number }[]) => best(xs.map((x) => x.cpu));
  const ratio = wall(kit) / wall(floors);
  const f2 = (x: number) => x.toFixed(2);
  const each = (xs: { wall: number; cpu: number }[]) => xs.map((x) => `${f2(x.wall)} s (cpu ${f2(x.cpu)} s)`).join(" / ");
  const lines = [
    `rows ${n.toLocaleString("en-US")}, repeats ${REPEATS}, load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`,
    `kit appendColumns      ${each(kit)}  best ${f2(wall(kit))} s, ${Math.round(n / wall(kit)).toLocaleString("en-US")} rows/s`,
    `floor INSERT … SELECT  ${each(floors)}  best ${f2(wall(floors))} s`,
    `ratio kit / floor      ${ratio.toFixed(2)}× wall, ${(cpu(kit) / cpu(floors)).toFixed(2)}× cpu  (goal ≤ ${GOAL_RATIO}× wall: ${ratio <= GOAL_RATIO ? "met" : "not met"})`,
    `kit append(rows)       ${f2(rowsS)} s  (${(rowsS / wall(floors)).toFixed(2)}× the floor)`,
    `board aggregate        best ${best(times).toFixed(1)} ms, median ${times.sort((a, b) => a - b)[2]!.toFixed(1)} ms (goal ≤ 50 ms)`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
