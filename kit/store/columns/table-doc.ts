// The shape of the schema's documentation: one TableDoc per table, written beside the migrations that define
// the tables (kit/store/columns/<owner>.ts), printed by `openmle workspace schema` and docs/schema.md.

/** The layer that owns a table: the only one whose `*-store.ts` writes it (docs/architecture.md). */
export type OwnerLayer = "store" | "gym" | "sandbox" | "llm" | "evo" | "erl" | "reproduce" | "experiment";

/** One column: its name, its DuckDB type as information_schema reports it, and what it means. */
export interface ColumnDoc {
  readonly name: string;
  readonly type: string;
  /** Meaning, units, direction of scores, and which layer/function writes it. */
  readonly description: string;
}

/** One table: what a row is, who owns it, and every column in the order the schema defines them. */
export interface TableDoc {
  readonly table: string;
  readonly owner: OwnerLayer;
  readonly description: string;
  readonly columns: readonly ColumnDoc[];
}

/** A column entry, written compactly: `col("fitness", "DOUBLE", "…")`. */
export const col = (name: string, type: string, description: string): ColumnDoc => ({ name, type, description });

/** `created_at` of tables whose rows the kit appends without one: the appender's clock (kit/store/workspace.ts). */
export const createdAt = (what: string): ColumnDoc =>
  col("created_at", "TIMESTAMP", `When ${what} was written: UTC, set by the store's appender (Workspace.append).`);
