// Lays an experiment out from the finished cells a workspace holds, running nothing: for a run stopped before its
// last cell (the others are read back; unfinished ones are left out, the table's runs column says how many).
// The provenance's wall time is the cells' own (Σ of the rl runs' step times, or of the search cells' runs).
// Usage: npx tsx bench/reproduce/layout-stored.ts --workspace workspaces/rp-rl --id rl-reward-design \
//          --out bench/reproduce/results/rl-reward-design-laptop [--preset laptop]
import { parseArgs } from "node:util";
import { loadThroughput } from "../../kit/eval/index.js";
import {
  experimentById,
  provenance,
  storedRlTable,
  storedSftTable,
  storedTable,
  tableMarkdown,
  writeExperiment,
  writeExperimentFigure,
  writeExperimentPng,
  type ReproducePreset,
  type TableRow,
} from "../../kit/reproduce/index.js";
import type { Figure } from "../../kit/report/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const { values: a } = parseArgs({
  options: {
    workspace: { type: "string" },
    id: { type: "string" },
    preset: { type: "string", default: "laptop" },
    out: { type: "string" },
  },
});
if (!a.workspace || !a.id || !a.out) throw new Error("pass --workspace DIR --id EXPERIMENT --out DIR");
const spec = experimentById(a.id);
const preset = a.preset as ReproducePreset;
const ws = await openWorkspace(a.workspace, { readOnly: true });
/** The layout of the stored cells and their runs' own wall time, per kind of experiment. */
async function laidOut(): Promise<{ rows: TableRow[]; cells: number; figure: Figure | null; cellsS: number }> {
  const wallOf = async (runIds: string[]) => (await loadThroughput(ws, runIds)).reduce((t, r) => t + (r.wallS ?? 0), 0);
  if (spec.kind === "rl") {
    const r = await storedRlTable(ws, spec, preset);
    const cellsS = r.cells.flatMap((c) => c.run.steps).reduce((t, s) => t + s.wallS, 0);
    return { rows: r.rows, cells: r.cells.length, figure: r.figure, cellsS };
  }
  if (spec.kind === "sft") {
    const r = await storedSftTable(ws, spec, preset);
    // the teacher's evolve runs (rp-<id>-<preset>-…, cellRunId); the parallel drafts record no run of their own
    const runs = (await loadThroughput(ws)).filter((t) => t.runId.startsWith(`rp-${spec.id}-${preset}-`));
    const cellsS = runs.reduce((t, run) => t + (run.wallS ?? 0), 0);
    return { rows: r.rows, cells: r.cells.length, figure: r.figure, cellsS };
  }
  const r = await storedTable(ws, spec, preset);
  return { rows: r.rows, cells: r.cells.length, figure: r.figure, cellsS: await wallOf(r.cells.map((c) => c.runId)) };
}

try {
  const laid = await laidOut();
  const cellsS = laid.cellsS;
  const p = provenance(spec, preset, cellsS, new Date(), cellsS, null);
  const written = writeExperiment(a.out, spec, preset, laid.rows, p);
  await writeExperimentPng(written.html);
  if (laid.figure) await writeExperimentFigure(a.out, laid.figure);
  console.log(tableMarkdown(laid.rows));
  console.log(`${laid.cells} finished cells; their runs ${(cellsS / 60).toFixed(1)} min; wrote ${a.out}`);
} finally {
  ws.close();
}
