import { defineConfig } from "vitest/config";

// Tests run against real Python, DuckDB, HTTP servers and processes, so they are slow-ish
// and must not oversubscribe a 2-core machine.
export default defineConfig({
  test: {
    include: ["kit/**/*.test.ts", "bench/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
