// kit/report: figures (plotly, offline) and HTML pieces for notebooks and reports.
export {
  figureHtml, notebookFigure, plotlyBundle, plotlyScriptTag, clearOfModebar, MODEBAR_CLEAR_TOP, PALETTE, type Figure,
} from "./plotly.js";
export { htmlTable } from "./html-table.js";
export { timeSplit, timeSplitTable, type TimeSplitRow } from "./time-split.js";
export { formatNumber, formatPercent, formatSeconds, formatValue, DASH } from "./format.js";
export {
  searchTreeFigure, bestOverTimeFigure, OPERATOR_COLOR, operatorColor, type TreeNodeRow, type TraceRow,
} from "./tree-figures.js";
export { treeLayout, type TreeLayout, type LayoutInput } from "./tree-layout.js";
export {
  placeTreeLabels, labelFontPx, operatorInitial, OPERATOR_INITIAL, type LabelCandidate, type LabelGeometry,
} from "./tree-labels.js";
export { treeViewHtml, nodeDetails, TREE_VIEW_CSS, type NodeDetail } from "./tree-view.js";
export { lineDiff, diffText, type DiffLine } from "./line-diff.js";
export {
  selectionAtStep, defaultSelectionStep, selectionAtStepFigure, type SelectionAtStep, type SelectionRow,
} from "./selection-at-step.js";
export {
  corpusFunnelFigure, wrapLabel, type FunnelFigureStage, type PaperFigureStage,
} from "./corpus-funnel-figure.js";
export { gradeDistributionFigure, modalityBarsFigure, metricBarsFigure, type ModalityRow } from "./grade-figures.js";
export { operatorGainsFigure, selectionProbabilitiesFigure, promptSizeFigure, softmax } from "./operator-figures.js";
export {
  reportFigures, reportFigureSet, omittedHtml, NORMALISED_AXIS, type NamedFigure, type OmittedFigure, type ReportData,
} from "./report-figures.js";
export {
  openInChromium, pagePng, modebarOverlaps, CHROMIUM_PATH, CHROMIUM_ARGS, type DrawnFigure, type ModebarOverlap,
} from "./chromium.js";
export {
  analysisFigures, analysisFigureSet, operatorStatsFigure, bestScoreCurveFigure, lineageFigure, gainShareFigure,
} from "./analysis-figures.js";
export { transferScatterFigure } from "./transfer-figure.js";
export { loadRunViews, isWorkspaceDir, type RunView, type ViewNode } from "./run-view.js";
export { runResult, resultHtml, gapText, vsDraftRows, type RunResult } from "./result-section.js";
export { validationGap, ValidationGapConfig, type ValidationGap } from "./validation-gap.js";
export {
  journalWriter, journalReader, journalDir, type JournalRecord, type JournalNode, type LiveRun,
} from "./live-journal.js";
export {
  serveDashboard, dashboardState, dashboardHtml, liveNodesPerMin, type DashboardServer,
} from "./serve-dashboard.js";
export { PortInUseError, HostUnavailableError, hostAllowed } from "./dashboard-host.js";
export { openRecordedRuns, recordedRunsDir, recordedRunsFolder } from "./recorded-runs.js";
export { writeReport, reportHtml, type ReportOptions, type ReportResult } from "./write-report.js";
export { EXPLORATORY_NOTE, LEADERBOARD_NOTE, NORMALISED_NOTE, NORMALISED_COLUMN } from "./evaluation-tables.js";
export { ReportError, UnknownRunError, EmptyRunError, MissingWorkspaceError } from "./errors.js";
export { ReportConfig } from "./config.js";
