// %% [markdown]
// # 00 · The workspace
// Every run, node, experience card, sandbox execution, LLM call and training example of the kit lives
// in a **workspace**: one folder with one DuckDB database. This notebook opens one, writes rows through
// the bulk appender, queries them with SQL, looks at them as a danfojs DataFrame, round-trips them through
// Arrow and Parquet, and draws a plotly chart.
// %%
import * as tslab from "tslab";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace, store, toArrow, toDanfo, exportParquet, importParquet, notebookFigure, htmlTable } from "openmle";

const dir = join(mkdtempSync(join(tmpdir(), "nb00-")), "ws");
const ws = await openWorkspace(dir);
console.log(`workspace ${ws.dir}, schema v${ws.schemaVersion}; tables: ${store.TABLES.join(", ")}`);
// %% [markdown]
// ## Write a run and its experience cards
// `startRun` stores the run's config with a hash that ignores paths and run names, so two runs with the same
// settings can be found by hash. The cards here are a small hand-written lineage to show the table; real
// cards come from `evolve` runs.
// %%
const runId = await store.startRun(ws, { taskId: "penguins", harness: "openmle", policy: "grammar", seed: 1, config: { steps: 8, workspace: dir } });
const families = ["sklearn", "xgboost", "neural_net", "ensemble"];
const ops = ["draft", "draft", "improve", "debug", "improve", "crossover", "improve", "crossover"];
const cards = ops.map((operator, i) => ({
  run_id: runId, node_id: `n${i}`, operator, generation_id: Math.floor(i / 2),
  parents: i < 2 ? [] : operator === "crossover" ? [`n${i - 1}`, `n${i - 2}`] : [`n${i - 1}`],
  status: operator === "debug" ? "runtime_error" : "success",
  score: operator === "debug" ? null : 0.80 + 0.02 * i,
  method_family: families[i % families.length],
}));
await ws.append("cards", cards);
tslab.display.html(htmlTable(await ws.query("SELECT node_id, operator, parents, status, score, method_family FROM cards ORDER BY node_id")));
// %% [markdown]
// ## A danfojs view of a query
// %%
const df = await toDanfo(ws, "SELECT method_family, count(*) AS nodes, max(score) AS best FROM cards GROUP BY 1 ORDER BY best DESC NULLS LAST");
df.print();
// %% [markdown]
// ## Arrow and Parquet round trips
// %%
const table = await toArrow(ws, "SELECT * FROM cards");
console.log(`Arrow: ${table.numRows} rows × ${table.numCols} columns`);
const file = await exportParquet(ws, "cards", join(dir, "..", "cards.parquet"));
await importParquet(ws, file, "cards_from_parquet", { create: true });
console.log(await ws.query("SELECT count(*) AS n FROM cards_from_parquet"));
// %% [markdown]
// ## A plotly chart: score by node, coloured by operator
// %%
const rows = await ws.query<{ node_id: string; operator: string; score: number | null }>("SELECT node_id, operator, score FROM cards WHERE score IS NOT NULL ORDER BY node_id");
const byOp = [...new Set(rows.map((r) => r.operator))].map((op) => ({
  type: "bar", name: op,
  x: rows.filter((r) => r.operator === op).map((r) => r.node_id),
  y: rows.filter((r) => r.operator === op).map((r) => r.score),
}));
tslab.display.html(notebookFigure({ data: byOp, layout: { title: { text: "Validation score per node" }, yaxis: { range: [0.75, 1] } } }));
// %%
await store.finishRun(ws, runId, "finished", { nodes: cards.length });
ws.close();
