import { col, type TableDoc } from "./table-doc.js";

/** kit/sandbox's table: execution records, also the cache that idempotency keys look up. */
export const SANDBOX_TABLES: readonly TableDoc[] = [
  {
    table: "executions",
    owner: "sandbox",
    description:
      "One row per program execution (an ExecutionRecord, kit/sandbox/types.ts): written by runSandbox with a " +
      "workspace (kit/sandbox/record-store.ts writeExecution) or with its node (kit/evo/node-store.ts writeNode). " +
      "A stored row is reused for the same idempotency key instead of re-running; sandbox_error records are " +
      "never stored.",
    columns: [
      col(
        "execution_id",
        "VARCHAR",
        "A random UUID per execution (runSandbox); primary key; nodes.execution_id refers to it.",
      ),
      col(
        "idempotency_key",
        "VARCHAR",
        "stableHash of task id, package content hash, code hash, limits and backend (idempotency-key.ts): equal " +
          "keys reuse the stored record.",
      ),
      col("run_id", "VARCHAR", "The run that asked for it (runs.run_id); null for a standalone `sandbox run`."),
      col(
        "node_id",
        "VARCHAR",
        "The node it evaluated (nodes.node_id); null when no node owns it (a standalone run, or a record " +
          "detached after a kill by detachOrphanExecutions and kept as a cache entry).",
      ),
      col("task_id", "VARCHAR", "The task package it ran against (tasks.task_id)."),
      col(
        "backend",
        "VARCHAR",
        "The executor that ran it: 'local' (bubblewrap), 'local-unsafe' (no jail) or 'docker'; a queue job's " +
          "record names its worker's executor (its idempotency key says 'queue').",
      ),
      col(
        "status",
        "VARCHAR",
        "The feedback mode (docs/paper-map.md: Sandbox feedback modes): success | runtime_error | missing_code | " +
          "missing_submission | scoring_failure | timeout (kit/sandbox/classify.ts).",
      ),
      col(
        "valid_score",
        "DOUBLE",
        "The score the program printed on its `Final Validation Score:` line, in the task metric's units and " +
          "direction (not signed); null when absent or unparseable.",
      ),
      col(
        "test_score",
        "DOUBLE",
        "The task's hidden metric on the program's submission, computed by the kit's scorer outside the " +
          "program; metric units and direction; null when nothing was scored.",
      ),
      col(
        "error_type",
        "VARCHAR",
        "The failure's kind: the Python exception name, timeout, missing_code, submission_missing, MemoryError, " +
          "DiskQuotaExceeded, killed_by_<signal>, exit_code_<n>…; null on success.",
      ),
      col(
        "error_signature",
        "VARCHAR",
        "A short key that groups equal failures (e.g. timeout, import_error, column_mismatch, memory_error); " +
          "null on success.",
      ),
      col("traceback", "VARCHAR", "The excerpt of the Python traceback the failure printed; null when none."),
      col("stdout_tail", "VARCHAR", "The last bytes of the program's stdout (64 KiB per stream by default)."),
      col("stderr_tail", "VARCHAR", "The last bytes of the program's stderr (64 KiB per stream by default)."),
      col("wall_s", "DOUBLE", "Wall-clock seconds of the program's process, start to exit (scoring excluded)."),
      col(
        "cpu_s",
        "DOUBLE",
        "CPU seconds (user + system) of the job's cgroup; 0 where the backend does not measure it.",
      ),
      col(
        "peak_mem_mb",
        "DOUBLE",
        "Peak memory of the job's cgroup in MiB; null where the backend does not measure it.",
      ),
      col(
        "artifacts",
        "VARCHAR[]",
        "Files the job left in its folder (relative paths, sorted; code/main.py left out).",
      ),
      col(
        "code_hash",
        "VARCHAR",
        "First 16 hex digits of the sha256 of the program text (codeHash; '' hashes no code).",
      ),
      col(
        "limits",
        "JSON",
        "The limits it ran under (SandboxLimits): timeoutS (seconds), memoryMb (MiB), cpus, gpus, diskMb (MiB).",
      ),
      col("started_at", "TIMESTAMP", "When runSandbox started the execution (UTC)."),
      col("ended_at", "TIMESTAMP", "When the execution and its scoring ended (UTC)."),
    ],
  },
];
