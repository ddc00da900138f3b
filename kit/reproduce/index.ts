// kit/reproduce: the paper's experiments as specs (issue 31): arms × tasks × repeats per preset, the paper's rows
// attached as reference, the plan (cells, programs, cost) of each, and the runner of search experiments' cells.
export {
  ExperimentSpec, ExperimentPreset, ArmSpec, TaskSet, ReferenceRow, REPRODUCE_PRESETS, EXPERIMENT_KINDS, kitSource,
  presetTitle,
  type ReproducePreset, type ExperimentSpecInput,
} from "./experiment-spec.js";
export { EXPERIMENTS, experimentById, selectArms } from "./catalogue.js";
export {
  planExperiment, taskLabels, LAPTOP_PROGRAMS_PER_MIN, LAPTOP_RL_PROGRAMS_PER_MIN, CORPUS_BUILD_MIN,
  type ExperimentPlan, type PlanCell,
} from "./plan.js";
export { catalogueRows, catalogueText, planText, formatMinutes, type CatalogueRow } from "./plan-text.js";
export { ReproduceError, UnknownExperimentError, PresetNotDefinedError } from "./errors.js";
export {
  runSearchExperiment, resolveTaskSet, armPolicy, cellRunId, type CellResult, type CellEvent,
} from "./run-search.js";
export {
  searchTable, tableMarkdown, tableRecords, referenceRows, REFERENCE_SOURCE, type TableRow,
} from "./search-table.js";
export {
  runRlExperiment,
  rlTable,
  storedRlTable,
  rlCellRunId,
  armStart,
  type RlCellResult,
  type RlCellEvent,
} from "./run-rl.js";
export {
  provenance, experimentMarkdown, writeExperiment, writeExperimentPng, writeExperimentFigure, type Provenance,
  type ExtraTable,
} from "./render.js";
export { searchFigure, rlFigure, sftFigure, funnelFigure } from "./figures.js";
export {
  runSftExperiment, sftTable, storedSftTable, cellDataset, type SftCellResult, type SftCellEvent,
} from "./run-sft.js";
export { runFunnelExperiment, funnelRows, type FunnelResult } from "./run-funnel.js";
export { useRecordedLoop, type RecordedLoop } from "./recorded-loop.js";
export {
  modalityTable,
  modalityStats,
  ceilingTable,
  ceilingStats,
  ceilingGrade,
  CEILING_GRADES,
  type CeilingGrade,
} from "./cell-layouts.js";
export { efficiencyTable, runTotals, type EfficiencyRows } from "./efficiency-table.js";
export { layoutSharedExperiment, layoutCells, storedTable, cellOwner, cellsFigure } from "./run-shared.js";
export { layoutFigure } from "./layout-figures.js";
export { writeCell, readCells } from "./cell-store.js";
export {
  registeredTable, registeredView, registeredArmLabel, type RegisteredTable, type TaskFacts,
} from "./registered-view.js";
export {
  pairedRows, pairedRecords, pairedText, pairedMarkdown, pairedHtml, type PairedRow,
} from "./paired-table.js";
export {
  transferRows, transferRecords, transferMarkdown, transferHtml, type TransferRow,
} from "./transfer-table.js";
