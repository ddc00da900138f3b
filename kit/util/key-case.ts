// Key case of the kit's JSON: camelCase in TypeScript, snake_case in every file and --json output.
/**
 * Every `--json` output uses snake_case keys: the workspace's columns, MLE-bench's grade report and
 * the baselines file are snake_case already, so the kit's camelCase objects are converted at the CLI
 * boundary, deep, without touching values. `workspace query` rows keep their SQL column names.
 */
export function snakeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [snakeKey(k), snakeKeys(v)]),
  );
}

/** The inverse of snakeKey for the kit's own keys: `task_type` -> `taskType`. */
export function camelKey(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** camelKey on every key, deep, values untouched (files the kit wrote with snakeKeys, read back). */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [camelKey(k), camelKeys(v)]),
  );
}
