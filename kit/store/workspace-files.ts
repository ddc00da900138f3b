/** The DuckDB database file of a workspace folder. */
export const DB_FILE = "openmle.duckdb";
/** The writer lock file beside it (see lock.ts). */
export const LOCK_FILE = "openmle.lock";
