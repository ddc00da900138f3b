// Records finished laptop experiments for notebook 06 (data/recorded-runs/<name>): the stored cells of each
// experiment (reproduce_cells) and, for those named with --nodes, what the search-efficiency layout reads of their
// runs (runs, nodes and cards, without program code or plans: the layout needs operators, scores and prompt sizes),
// with the cells' tasks rows; for rl experiments (--rl) their trainRL runs' steps, groups, rollouts (without
// programs and decisions: the table and figure need rewards and advantages) and static bounds per task (the fixed
// scale); for sft experiments (--sft) their cells' datasets (without messages, programs and decisions: the table
// needs each example's operator and path). One Parquet file per table; a table with no rows leaves its earlier file
// as it was.
// Usage: npx tsx bench/reproduce/record.ts --out data/recorded-runs/reproduce-laptop \
//          --from workspaces/rp-mfh:model-fixed-harness --from workspaces/rp-hfm:harness-fixed-model \
//          --nodes harness-fixed-model --rl workspaces/rp-rl:rl-reward-design --sft workspaces/rp-sft:sft-composition
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { exportParquet, importParquet, openWorkspace } from "../../kit/store/index.js";

const { values: a } = parseArgs({
  options: {
    out: { type: "string" },
    from: { type: "string", multiple: true },
    nodes: { type: "string", multiple: true, default: [] },
    rl: { type: "string", multiple: true, default: [] },
    sft: { type: "string", multiple: true, default: [] },
    preset: { type: "string", default: "laptop" },
  },
});
if (!a.out || !(a.from?.length || a.rl?.length || a.sft?.length))
  throw new Error("pass --out DIR and --from, --rl or --sft WORKSPACE:EXPERIMENT (repeatable)");
const out = resolve(a.out);
mkdirSync(out, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), "openmle-record-"));
const rec = await openWorkspace(join(tmp, "ws"));
const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
let part = 0;
const have = new Set<string>();
const notYet = () => (have.size ? `AND task_id NOT IN (${[...have].map(q).join(", ")})` : "");
try {
  const sources = [
    ...(a.from ?? []).map((f) => ["search", f] as const),
    ...a.rl!.map((f) => ["rl", f] as const),
    ...a.sft!.map((f) => ["sft", f] as const),
  ];
  for (const [kind, f] of sources) {
    const [dir, id] = f.split(":");
    if (!dir || !id) throw new Error(`--from/--rl/--sft ${f}: pass WORKSPACE:EXPERIMENT`);
    const ws = await openWorkspace(dir, { readOnly: true });
    try {
      // rl cells are trainRL runs named rp-<id>-<preset>-<arm>-r<k> (kit/reproduce rlCellRunId)
      const rlRuns = `SELECT run_id FROM rl_runs WHERE run_id LIKE ${q(`rp-${id}-${a.preset}-%`)}`;
      const rlTables: [string, string][] = [
        ["rl_runs", `SELECT * FROM rl_runs WHERE run_id IN (${rlRuns})`],
        ["rl_steps", `SELECT * FROM rl_steps WHERE run_id IN (${rlRuns})`],
        ["rl_groups", `SELECT * FROM rl_groups WHERE run_id IN (${rlRuns})`],
        ["rl_rollouts", `SELECT * EXCLUDE (code, choices) FROM rl_rollouts WHERE run_id IN (${rlRuns})`],
        ["rl_task_bounds", `SELECT * FROM rl_task_bounds WHERE run_id IN (${rlRuns})`],
      ];
      // sft cells are datasets named rp-<id>-<preset>-<arm>-r<k> (kit/reproduce cellDataset); meta without choices
      const sftTables: [string, string][] = [
        [
          "datasets",
          `SELECT * EXCLUDE (messages, program) REPLACE (json_object('path', meta->>'path', 'teacher', ` +
            `meta->>'teacher', 'source_node', meta->>'source_node', 'judge', meta->>'judge', 'config_hash', ` +
            `meta->>'config_hash') AS meta) FROM datasets WHERE dataset LIKE ${q(`rp-${id}-${a.preset}-%`)}`,
        ],
      ];
      const cells = `SELECT * FROM reproduce_cells WHERE experiment = ${q(id)} AND preset = ${q(a.preset!)}`;
      const runIds = `SELECT run_id FROM (${cells})`;
      const tables: [string, string][] = [
        ["reproduce_cells", cells],
        // a task two experiments share is recorded once (tasks has a primary key)
        ["tasks", `SELECT * FROM tasks WHERE task_id IN (SELECT task_id FROM (${cells})) ${notYet()}`],
      ];
      if (a.nodes!.includes(id))
        tables.push(
          [
            "runs",
            `SELECT run_id, task_id, harness, status, started_at, ended_at, config FROM runs WHERE run_id IN (${runIds})`,
          ],
          ["nodes", `SELECT * EXCLUDE (code, plan) FROM nodes WHERE run_id IN (${runIds})`],
          ["cards", `SELECT * EXCLUDE (plan, analysis, rich_summary) FROM cards WHERE run_id IN (${runIds})`],
        );
      for (const [table, sql] of kind === "rl" ? rlTables : kind === "sft" ? sftTables : tables) {
        const file = join(tmp, `${part++}.parquet`);
        await exportParquet(ws, sql, file);
        const n = await importParquet(rec, file, table);
        if (table === "tasks")
          for (const r of await rec.query<{ task_id: string }>("SELECT task_id FROM tasks")) have.add(r.task_id);
        console.log(`${id}: ${table} ${n} rows`);
      }
    } finally {
      ws.close();
    }
  }
  for (const table of [
    "reproduce_cells",
    "tasks",
    "runs",
    "nodes",
    "cards",
    "rl_runs",
    "rl_steps",
    "rl_groups",
    "rl_rollouts",
    "rl_task_bounds",
    "datasets",
  ]) {
    const [{ n }] = await rec.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
    if (n) await exportParquet(rec, table, join(out, `${table}.parquet`));
    if (n) console.log(`wrote ${join(out, `${table}.parquet`)}: ${n} rows`);
  }
} finally {
  rec.close();
}
