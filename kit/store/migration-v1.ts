// Version 1 of the workspace schema: the tables of the first kit (gym, sandbox, llm, evo, erl datasets).
// Shipped: never edit it; a change is a new migration (see schema.ts).
import type { Migration } from "./migration.js";

export const MIGRATION_V1: Migration = {
  version: 1,
  description: "tasks, runs, nodes, cards, executions, llm_calls, memory_cache, datasets",
  sql: [
    `CREATE TABLE tasks (
        task_id VARCHAR PRIMARY KEY,
        name VARCHAR,
        modality VARCHAR,
        task_type VARCHAR,
        metric VARCHAR,
        higher_is_better BOOLEAN,
        dir VARCHAR,
        source VARCHAR,
        spec JSON,
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    `CREATE TABLE task_reviews (
        review_id VARCHAR PRIMARY KEY,
        task_id VARCHAR,
        kind VARCHAR,             -- 'quality' (deterministic checks) | 'semantic' (LLM gate)
        verdict VARCHAR,          -- pass/fail | recommended/conditional/rejected/skipped
        accepted BOOLEAN,
        report JSON,
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    `CREATE TABLE runs (
        run_id VARCHAR PRIMARY KEY,
        task_id VARCHAR,
        harness VARCHAR,
        policy VARCHAR,
        seed BIGINT,
        config JSON,
        config_hash VARCHAR,
        status VARCHAR,           -- running | finished | failed | killed
        summary JSON,
        started_at TIMESTAMP DEFAULT current_timestamp,
        ended_at TIMESTAMP
      )`,
    `CREATE TABLE nodes (
        run_id VARCHAR,
        node_id VARCHAR,
        island INTEGER,
        step INTEGER,
        generation INTEGER,
        operator VARCHAR,         -- draft | improve | debug | crossover
        parents VARCHAR[],
        status VARCHAR,           -- the sandbox feedback mode
        error_signature VARCHAR,
        valid_score DOUBLE,
        test_score DOUBLE,
        fitness DOUBLE,
        reward DOUBLE,
        admitted BOOLEAN,
        plan VARCHAR,
        code VARCHAR,
        spec JSON,
        log_prob DOUBLE,
        execution_id VARCHAR,
        created_at TIMESTAMP DEFAULT current_timestamp,
        PRIMARY KEY (run_id, node_id)
      )`,
    // Every experience-card field (docs/paper-map.md: Cards and memory), one column each.
    `CREATE TABLE cards (
        run_id VARCHAR,
        node_id VARCHAR,
        operator VARCHAR,
        parents VARCHAR[],
        generation_id INTEGER,
        score DOUBLE,
        fitness DOUBLE,
        reward DOUBLE,
        status VARCHAR,
        error_signature VARCHAR,
        sandbox_time_s DOUBLE,
        model_time_s DOUBLE,
        cost_usd DOUBLE,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        imports VARCHAR[],
        method_family VARCHAR,
        family_explored INTEGER,  -- cards already in this family when this one was written
        delta_vs_parent DOUBLE,
        novelty DOUBLE,
        rank INTEGER,
        is_champion BOOLEAN,
        selection_utility DOUBLE,
        plan VARCHAR,
        analysis VARCHAR,
        rich_summary VARCHAR,     -- generated lazily (operator-triggered memory synthesis)
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    `CREATE TABLE executions (
        execution_id VARCHAR PRIMARY KEY,
        idempotency_key VARCHAR,
        run_id VARCHAR,
        node_id VARCHAR,
        task_id VARCHAR,
        backend VARCHAR,
        status VARCHAR,
        valid_score DOUBLE,
        test_score DOUBLE,
        error_type VARCHAR,
        error_signature VARCHAR,
        traceback VARCHAR,
        stdout_tail VARCHAR,
        stderr_tail VARCHAR,
        wall_s DOUBLE,
        cpu_s DOUBLE,
        peak_mem_mb DOUBLE,
        artifacts VARCHAR[],
        code_hash VARCHAR,
        limits JSON,
        started_at TIMESTAMP,
        ended_at TIMESTAMP
      )`,
    `CREATE TABLE llm_calls (
        call_id VARCHAR PRIMARY KEY,
        run_id VARCHAR,
        node_id VARCHAR,
        operator VARCHAR,
        purpose VARCHAR,          -- operator | memory | judge | quality_gate
        provider VARCHAR,
        model VARCHAR,
        prompt_chars INTEGER,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        tokens_source VARCHAR,    -- provider | tokenizer
        latency_ms DOUBLE,
        cost_usd DOUBLE,
        status VARCHAR,
        error VARCHAR,
        prompt VARCHAR,
        completion VARCHAR,
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    `CREATE TABLE memory_cache (
        cache_key VARCHAR PRIMARY KEY,
        run_id VARCHAR,
        node_id VARCHAR,
        operator VARCHAR,
        model VARCHAR,
        summary VARCHAR,
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    `CREATE TABLE datasets (
        example_id VARCHAR PRIMARY KEY,
        dataset VARCHAR,
        kind VARCHAR,             -- sft | rl
        task_id VARCHAR,
        operator VARCHAR,
        messages JSON,
        program VARCHAR,
        score DOUBLE,
        weight DOUBLE,
        reward DOUBLE,
        advantage DOUBLE,
        source_run VARCHAR,
        meta JSON,
        created_at TIMESTAMP DEFAULT current_timestamp
      )`,
    `CREATE INDEX executions_key ON executions (idempotency_key)`,
  ],
};
