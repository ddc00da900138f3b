// kit/report: figures (plotly, offline) and HTML pieces for notebooks and reports.
export { figureHtml, notebookFigure, plotlyBundle, plotlyScriptTag, type Figure } from "./plotly.js";
export { htmlTable } from "./html-table.js";
export { timeSplit, timeSplitTable, type TimeSplitRow } from "./time-split.js";
export { searchTreeFigure, bestOverTimeFigure, OPERATOR_COLOR, operatorColor, type TreeNodeRow, type TraceRow } from "./tree-figures.js";
export { gradeDistributionFigure, modalityBarsFigure, metricBarsFigure, type ModalityRow } from "./grade-figures.js";
export { operatorGainsFigure, selectionProbabilitiesFigure, promptSizeFigure, softmax } from "./operator-figures.js";
export { reportFigures, type NamedFigure, type ReportData } from "./report-figures.js";
export { openInChromium, CHROMIUM_PATH, CHROMIUM_ARGS, type DrawnFigure } from "./chromium.js";
export { writeReport, reportHtml, type ReportOptions, type ReportResult } from "./write-report.js";
export { ReportConfig } from "./config.js";
