/** One forward-only step of the workspace schema: applied once, in order, in one transaction (migrate.ts). */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: readonly string[];
}
