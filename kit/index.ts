// The kit's high-level API. Notebooks: `import { ... } from "openmle"`.
// Layers are re-exported as namespaces so each one's API stays on one screen.
export * as store from "./store/index.js";
export { openWorkspace, toArrow, fromArrow, toDanfo, exportParquet, importParquet, configHash } from "./store/index.js";
export * as report from "./report/index.js";
export { notebookFigure, figureHtml, htmlTable, type Figure } from "./report/index.js";
