// A registration's results (kit/experiment) laid out as a reproduce experiment's table: the plan's arms as the
// preset's arms, its search cells as the experiment's cells and its label ("registered <id>", "exploratory", …) as
// the rows' source, so `openmle reproduce ID --registered EXP` reports a registered run beside the paper's rows.
import { readExperimentResults, type ExperimentResults, type ResolvedArm } from "../experiment/index.js";
import { taskDirections, taskModalities } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { cellOwner } from "./run-shared.js";
import type { Figure } from "../report/index.js";
import { ceilingTable, modalityTable } from "./cell-layouts.js";
import { searchFigure } from "./figures.js";
import { layoutFigure } from "./layout-figures.js";
import { ReproduceError } from "./errors.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { searchTable, type TableRow } from "./search-table.js";

/** The preset key a view's arms sit under (any preset of the owner; the rows' source is the registration's label). */
const VIEW_PRESET: ReproducePreset = "laptop";

/** A task's facts the tables need that a result row does not carry. */
export interface TaskFacts {
  readonly modality: string;
  readonly higherIsBetter: boolean;
}

/** The name of a registration arm in a table: its name, policy and harness. */
export function registeredArmLabel(a: ResolvedArm): string {
  const p = a.policy;
  const policy = p.kind === "params" ? p.name : p.kind === "checkpoint" ? p.name : p.kind === "llm" ? p.model : p.path;
  return `${a.name} (${policy}${a.harness ? `, ${a.harness}` : ""})`;
}

/**
 * The owner's spec with one preset holding the registration's arms (id = arm name), repeats = seeds, steps = the
 * plan's steps and source = the results' label with the registration id; and the cells: one per stored result row,
 * repeat = its seed, grade = its medal, runId = its evolve run. A drafts-level plan has no search cells:
 * ReproduceError.
 */
export function registeredView(
  owner: ExperimentSpec,
  r: Pick<ExperimentResults, "plan" | "label" | "cells" | "registration">,
  facts: ReadonlyMap<string, TaskFacts>,
): { owner: ExperimentSpec; preset: ReproducePreset; cells: CellResult[] } {
  const id = r.registration.registrationId;
  if (r.plan.level.kind !== "search")
    throw new ReproduceError(
      `registration ${id} is at the drafts level: reproduce lays out search runs; read it with ` +
        `openmle experiment show ${id}`,
    );
  const template = owner.presets[VIEW_PRESET] ?? Object.values(owner.presets)[0];
  if (owner.kind !== "search" || !template)
    throw new ReproduceError(`experiment ${owner.id} is not a search experiment: no registration lays out as it`);
  const arms = r.plan.arms.map((a) => ({
    id: a.name.toLowerCase().replace(/[^a-z0-9-]+/g, "-"),
    name: a.name,
    label: registeredArmLabel(a),
  }));
  const preset = {
    ...template,
    arms: arms.map((a) => ({ id: a.id, label: a.label, settings: {}, teacherEvolve: {} })),
    repeats: r.plan.level.seeds,
    steps: r.plan.level.steps,
    source: r.label.includes(id) ? r.label : `${r.label} ${id}`, // "exploratory exp-…": the id, always
  };
  const cells = r.cells.map((c) => {
    const f = facts.get(c.taskId);
    return {
      arm: arms.find((a) => a.name === c.arm)?.id ?? c.arm,
      task: c.taskId,
      repeat: c.draw,
      runId: c.evolveRunId ?? `${c.runId}-${c.arm}-${c.taskId}-s${c.draw}`,
      cached: true,
      validRate: c.validRate ?? (c.valid ? 1 : 0),
      testScore: c.valid ? c.testScore : null,
      normalized: c.normalized,
      normalisable: c.normalisable,
      reference: null,
      weakReference: null,
      higherIsBetter: f?.higherIsBetter ?? true,
      modality: f?.modality ?? "unknown",
      grade: c.medal,
      humanRank: c.humanRank,
    } satisfies CellResult;
  });
  return { owner: { ...owner, presets: { [VIEW_PRESET]: preset } }, preset: VIEW_PRESET, cells };
}

/** A registration laid out as an experiment: its table rows, figure, cells and the results read (with its label). */
export interface RegisteredTable {
  readonly rows: TableRow[];
  readonly figure: Figure | null;
  readonly cells: CellResult[];
  /** `spec` with the view's preset (what the rendered page titles and renders). */
  readonly spec: ExperimentSpec;
  /** The owner experiment as the registration fills it (its one preset holds the plan's arms). */
  readonly owner: ExperimentSpec;
  readonly preset: ReproducePreset;
  readonly results: ExperimentResults;
}

/**
 * `spec`'s table from registration `registrationId`'s results (its registered result, or run `runId`): the read is
 * a look, logged by kit/experiment before anything is shown. Search experiments and their per-modality and
 * solution-ceiling layouts; search efficiency needs the kit's own reproduce cells.
 */
export async function registeredTable(
  ws: Workspace,
  spec: ExperimentSpec,
  registrationId: string,
  opts: { readonly runId?: string; readonly command: string },
): Promise<RegisteredTable> {
  if (spec.layout === "efficiency")
    throw new ReproduceError(
      `${spec.id} reads every node and prompt of the kit's own runs: run it with --workspace, not --registered`,
    );
  const ownerSpec = spec.sharesCellsWith ? cellOwner(spec) : spec;
  if (ownerSpec.kind !== "search")
    throw new ReproduceError(`experiment ${spec.id} is not a search experiment: no registration lays out as it`);
  const results = await readExperimentResults(ws, registrationId, opts);
  if (!results.run)
    throw new ReproduceError(
      `registration ${registrationId} has no completed run to lay out: openmle experiment run ${registrationId}`,
    );
  const [dirs, modalities] = [await taskDirections(ws), await taskModalities(ws)];
  const facts = new Map(
    results.plan.tasks.map((t) => [
      t.id,
      { modality: modalities.get(t.id) ?? "unknown", higherIsBetter: dirs.get(t.id) !== false },
    ]),
  );
  const { owner, preset, cells } = registeredView(ownerSpec, results, facts);
  const own = { ...spec, presets: owner.presets };
  const rows =
    spec.layout === "modality"
      ? modalityTable(spec, owner, preset, cells)
      : spec.layout === "ceiling"
        ? ceilingTable(spec, owner, preset, cells)
        : searchTable(own, preset, cells);
  const figure = spec.sharesCellsWith ? layoutFigure(spec, owner, preset, cells) : searchFigure(own, preset, cells);
  return { rows, figure, cells, spec: own, owner, preset, results };
}
