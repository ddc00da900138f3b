import type { QueryLimits } from "./query-limits.js";

/** How `openWorkspace` opens a workspace folder. */
export interface OpenOptions {
  /** Open without taking the writer lock; writes throw ReadOnlyWorkspaceError. */
  readonly readOnly?: boolean;
  /** Create the folder and database when missing (default true for writers). */
  readonly create?: boolean;
  /**
   * Confine SQL to this database, for SQL you did not write (`openmle workspace query`): no file or
   * network access (read_csv, COPY TO, ATTACH, INSTALL), no extension loading, and settings locked
   * so no statement can undo it (DuckDB's enable_external_access=false, lock_configuration=true).
   * Default false: export/import and toArrow need files. A confined handle also never spills to disk
   * (temp_directory is empty), so a query past its memory limit fails instead of writing beside the database.
   */
  readonly confined?: boolean;
  /**
   * Limits of a read-only handle's statements, for SQL you did not write (`openmle workspace query`): a time
   * limit (DuckDB's interrupt) and a memory limit (DuckDB's memory_limit, set before a confined handle locks its
   * settings, and a cap on the rows a query returns). A statement past one throws QueryLimitError. Default: none.
   */
  readonly limits?: QueryLimits;
  /** Read every block of table data at open (see `verify`), so a corrupt file fails here. Default false. */
  readonly verify?: boolean;
}
