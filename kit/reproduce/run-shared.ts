// An experiment that lays out another's cells (sharesCellsWith): the owner's cells are run or read back (a finished
// cell is not rerun), then laid out per modality, by solution grade, or as search efficiency. `storedTable` lays
// out any search experiment from the cells a workspace stored (reproduce_cells), with no task package at hand.
import { loadSearchRows } from "../eval/index.js";
import type { Figure } from "../report/index.js";
import type { Workspace } from "../store/index.js";
import { experimentById } from "./catalogue.js";
import { ceilingTable, modalityTable } from "./cell-layouts.js";
import { readCells } from "./cell-store.js";
import { efficiencyTable } from "./efficiency-table.js";
import { searchFigure } from "./figures.js";
import { layoutFigure } from "./layout-figures.js";
import { ReproduceError } from "./errors.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import { runSearchExperiment, type CellEvent, type CellResult } from "./run-search.js";
import type { RunnerOptions } from "./runner-common.js";
import { searchTable, type TableRow } from "./search-table.js";

/** The experiment whose cells `spec` lays out (it must be a search experiment with the preset). */
export function cellOwner(spec: ExperimentSpec): ExperimentSpec {
  if (!spec.sharesCellsWith || !spec.layout)
    throw new ReproduceError(`experiment ${spec.id} has cells of its own: run it, not its layout`);
  return experimentById(spec.sharesCellsWith);
}

/** The table of `spec` from its cells (the owner's, for a shared layout); efficiency reads the runs' nodes in `ws`. */
export async function layoutCells(
  ws: Workspace,
  spec: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): Promise<TableRow[]> {
  if (!spec.sharesCellsWith) return searchTable(spec, preset, cells);
  const owner = cellOwner(spec);
  if (spec.layout === "modality") return modalityTable(spec, owner, preset, cells);
  if (spec.layout === "ceiling") return ceilingTable(spec, owner, preset, cells);
  const r = await loadSearchRows(
    ws,
    cells.map((c) => c.runId),
  );
  return efficiencyTable(spec, owner, preset, cells, {
    nodes: r.nodes,
    prompts: r.prompts,
    higherIsBetter: (id) => r.higherIsBetter.get(id) ?? true,
  });
}

/** The figure beside `spec`'s table: the arms' bars, or a shared layout's (none for search efficiency). */
export function cellsFigure(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): Figure | null {
  return spec.sharesCellsWith ? layoutFigure(spec, cellOwner(spec), preset, cells) : searchFigure(spec, preset, cells);
}

/** 1. the owner's cells (runSearchExperiment: run or read back); 2. the layout named by the spec, and its figure. */
export async function layoutSharedExperiment(
  opts: RunnerOptions<CellEvent>,
): Promise<{ rows: TableRow[]; cells: CellResult[]; figure: Figure | null }> {
  const cells = await runSearchExperiment({ ...opts, spec: cellOwner(opts.spec) }); // 1.
  const rows = await layoutCells(opts.workspace, opts.spec, opts.preset, cells); // 2.
  return { rows, cells, figure: cellsFigure(opts.spec, opts.preset, cells) };
}

/**
 * A search experiment's table (or a shared layout's) from the cells `ws` stored: nothing runs, no task package is
 * read. A preset with no stored cell is an error that says how to make them.
 */
export async function storedTable(
  ws: Workspace,
  spec: ExperimentSpec,
  preset: ReproducePreset,
): Promise<{ rows: TableRow[]; cells: CellResult[]; figure: Figure | null }> {
  const owner = spec.sharesCellsWith ? cellOwner(spec) : spec;
  if (owner.kind !== "search") throw new ReproduceError(`experiment ${spec.id} is not a search experiment`);
  const cells = await readCells(ws, owner.id, preset);
  if (!cells.length)
    throw new ReproduceError(
      `${ws.dir} holds no cells of ${owner.id} at the ${preset} preset: run ` +
        `openmle reproduce ${spec.id} --preset ${preset} --workspace DIR`,
    );
  return { rows: await layoutCells(ws, spec, preset, cells), cells, figure: cellsFigure(spec, preset, cells) };
}
