// kit/report: figures (plotly, offline) and HTML pieces for notebooks and reports.
export { figureHtml, notebookFigure, plotlyBundle, plotlyScriptTag, type Figure } from "./plotly.js";
export { htmlTable } from "./html-table.js";
