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
} from "../../kit/reproduce/index.js";
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
try {
  const laid =
    spec.kind === "rl"
      ? await storedRlTable(ws, spec, preset)
      : spec.kind === "sft"
        ? await storedSftTable(ws, spec, preset)
        : { ...(await storedTable(ws, spec, preset)), figure: null };
  const cellsS =
    spec.kind === "rl"
      ? (laid.cells as Awaited<ReturnType<typeof storedRlTable>>["cells"])
          .flatMap((c) => c.run.steps)
          .reduce((t, s) => t + s.wallS, 0)
      : spec.kind === "sft"
        ? // the teacher's evolve runs (named by cellRunId); the parallel drafts record no wall time of their own
          (await loadThroughput(ws))
            .filter((r) => r.runId.startsWith(`rp-${spec.id}-${preset}-`))
            .reduce((t, r) => t + (r.wallS ?? 0), 0)
        : (
            await loadThroughput(
              ws,
              (laid.cells as Awaited<ReturnType<typeof storedTable>>["cells"]).map((c) => c.runId),
            )
          ).reduce((t, r) => t + (r.wallS ?? 0), 0);
  const p = provenance(spec, preset, cellsS, new Date(), cellsS, null);
  const written = writeExperiment(a.out, spec, preset, laid.rows, p);
  await writeExperimentPng(written.html);
  if (laid.figure) await writeExperimentFigure(a.out, laid.figure);
  console.log(tableMarkdown(laid.rows));
  console.log(`${laid.cells.length} finished cells; their runs ${(cellsS / 60).toFixed(1)} min; wrote ${a.out}`);
} finally {
  ws.close();
}
