// kit/store: a workspace = one folder with one DuckDB database (schema in schema.ts).
export { Workspace, openWorkspace } from "./workspace.js";
export { DB_FILE } from "./workspace-files.js";
export { quoteIdent } from "./quote-ident.js";
export type { OpenOptions } from "./open-options.js";
export type { QueryLimits } from "./query-limits.js";
export type { VerifyReport } from "./verify-tables.js";
export type { Row, Params } from "./values.js";
export type { Columns } from "./column-writer.js";
export { MIGRATIONS, SCHEMA_VERSION, TABLES, type TableName, type Migration } from "./schema.js";
export {
  SCHEMA_DOCS, tableDoc, schemaMarkdown, SCHEMA_DOC_BEGIN, SCHEMA_DOC_END, type TableDoc, type ColumnDoc,
  type OwnerLayer,
} from "./columns/index.js";
export { tableCounts } from "./table-counts.js";
export { toArrow, fromArrow } from "./arrow.js";
export {
  exportParquet, exportTable, formatOfFile, importParquet, EXPORT_FORMATS, type ExportFormat,
} from "./parquet.js";
export { toDanfo, rowsToDanfo } from "./danfo.js";
export { stableHash, configHash, canonicalJson } from "./hash.js";
export {
  MAX_JSON_DEPTH, MAX_JSON_BYTES, JsonBoundsError, checkJsonText, checkJsonDepth, parseBoundedJson, jsonTextDepth,
  utf8BytesOver,
  type JsonBounds,
} from "./bounded-json.js";
export { checkParquetJson } from "./parquet-json-bounds.js";
export { startRun, finishRun, type RunStart } from "./runs.js";
export {
  openRun, readRun, insertRun, markRunning, endRun, RUN_TABLES, type RunTable, type RunStatus, type StoredRun,
  type OpenRunSpec, type OpenedRun, type OpenMode,
} from "./run-lifecycle.js";
export { WorkspaceConfig } from "./config.js";
export {
  WorkspaceError, NotAWorkspaceError, NewerSchemaError, CorruptWorkspaceError, WorkspaceLockedError,
  ReadOnlyWorkspaceError, WorkspaceClosedError, QueryLimitError, type QueryLimit,
} from "./errors.js";
