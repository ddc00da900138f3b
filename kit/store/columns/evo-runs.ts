import { col, createdAt, type TableDoc } from "./table-doc.js";

const SIGNED =
  "the validation score signed so that higher is always better (valid_score, or −valid_score for a " +
  "lower-is-better metric: tasks.higher_is_better)";

/** kit/evo's tables of a search: its runs, their nodes, where each node's time went, the memory cache. */
export const EVO_RUN_TABLES: readonly TableDoc[] = [
  {
    table: "runs",
    owner: "evo",
    description:
      "One row per evolve run: inserted `running` by kit/evo/open-evolve-run.ts (kit/store/run-lifecycle.ts " +
      "openRun), ended by kit/evo/evolve.ts step 4 (endRun) with its summary and its final champion.",
    columns: [
      col("run_id", "VARCHAR", "`run-<8 hex>` unless the caller gave one (EvolveOptions.runId); primary key."),
      col("task_id", "VARCHAR", "The task searched (tasks.task_id)."),
      col(
        "harness",
        "VARCHAR",
        "The search harness: openmle (OpenMLE-Evo) | aira-evo | aide | mcts (EvolveConfig.harness).",
      ),
      col(
        "policy",
        "VARCHAR",
        "The policy's name: 'grammar', 'grammar@<params hash>', 'grammar:<checkpoint>' or 'llm:<model id>'.",
      ),
      col("seed", "BIGINT", "The run's seed (EvolveConfig.seed): the same seed, config and task repeat the run."),
      col("config", "JSON", "The whole parsed EvolveConfig (camelCase keys) as JSON text; a resume reads it back."),
      col(
        "config_hash",
        "VARCHAR",
        "configHash(config): 16 hex digits, equal for configs that differ only in paths/names.",
      ),
      col(
        "status",
        "VARCHAR",
        "running | finished | failed | killed (aborted); a resume sets it running again (run-lifecycle.ts).",
      ),
      col(
        "summary",
        "JSON",
        "The RunSummary at the end (kit/evo/run-summary.ts, camelCase keys): nodes, byOperator, validRate, " +
          "champion {nodeId, operator, methodFamily, validScore, testScore}, sandboxS, wallS, stopReason…; " +
          "plus `error` when the run failed. Null while running.",
      ),
      col("started_at", "TIMESTAMP", "When the run was first inserted (UTC, evolve's clock)."),
      col("ended_at", "TIMESTAMP", "When it last ended (UTC, evolve's clock); null while running."),
      col(
        "champion_node_id",
        "VARCHAR",
        "The run's final champion when it last ended: the scored node of highest fitness, the earliest among " +
          "ties (run-summary.ts champion); null when no node scored. Written by evolve's endRun (migration 7 " +
          "backfills it from summary.champion.nodeId).",
      ),
      col(
        "champion_valid_score",
        "DOUBLE",
        "The final champion's validation score (nodes.valid_score: metric units and direction, not signed).",
      ),
      col(
        "champion_test_score",
        "DOUBLE",
        "The final champion's hidden test score (nodes.test_score: metric units and direction); null when not scored.",
      ),
      col("champion_fitness", "DOUBLE", `The final champion's nodes.fitness: ${SIGNED}.`),
    ],
  },
  {
    table: "nodes",
    owner: "evo",
    description:
      "One row per evaluated node of a search, written with its execution record and card in one transaction " +
      "by kit/evo/node-store.ts writeNode (values from kit/evo/node-step.ts makeNode).",
    columns: [
      col("run_id", "VARCHAR", "The run (runs.run_id); (run_id, node_id) is the primary key."),
      col("node_id", "VARCHAR", "`n<step, 4 digits>` (nodeIdOf), e.g. n0009 for step 9."),
      col("island", "INTEGER", "The island the node belongs to (0-based; always 0 for the tree harnesses aide, mcts)."),
      col("step", "INTEGER", "The search step that issued it, 0-based (node n0009 is step 9)."),
      col(
        "generation",
        "INTEGER",
        "Island harnesses: the loop generation the node was made in (0 = the initial drafts and their " +
          "repairs); tree harnesses: its lineage depth.",
      ),
      col("operator", "VARCHAR", "draft | improve | debug | crossover: the operator that wrote the program."),
      col(
        "parents",
        "VARCHAR[]",
        "node_ids of its parents in the same run: none for draft, one for improve/debug, two for crossover.",
      ),
      col(
        "status",
        "VARCHAR",
        "The sandbox feedback mode: success | runtime_error | missing_code | missing_submission | " +
          "scoring_failure | timeout.",
      ),
      col("error_signature", "VARCHAR", "The execution's error_signature (groups equal failures); null on success."),
      col(
        "valid_score",
        "DOUBLE",
        "The validation score the program printed, in the task metric's units and direction (not signed); null " +
          "when absent.",
      ),
      col(
        "test_score",
        "DOUBLE",
        "The hidden test score of its submission (metric units and direction); the search never sees it.",
      ),
      col(
        "fitness",
        "DOUBLE",
        `What the search maximises: ${SIGNED}. Null unless status = success with a finite score (makeNode).`,
      ),
      col(
        "reward",
        "DOUBLE",
        "The execution-grounded reward in [0, 1] against the run's earlier successes (experience-card.ts " +
          "sandboxReward; 0 for a failure); the same as its card's reward.",
      ),
      col(
        "admitted",
        "BOOLEAN",
        "Whether it joined its island's population (islands.ts admits: a scored node of generation 0, of an empty " +
          "island or under admission 'always', else fitness >= the island's mean); tree harnesses: whether it scored.",
      ),
      col("plan", "VARCHAR", "The policy's plan text for the program."),
      col("code", "VARCHAR", "The program (code/main.py) exactly as executed; '' when the policy produced none."),
      col(
        "spec",
        "JSON",
        "The grammar policy's SolutionSpec of the program (kit/policy/grammar); null for LLM policies.",
      ),
      col(
        "log_prob",
        "DOUBLE",
        "Natural-log probability of the grammar policy's choices that wrote the program; null for LLM policies.",
      ),
      col("execution_id", "VARCHAR", "Its execution record (executions.execution_id)."),
      createdAt("the node"),
    ],
  },
  {
    table: "node_timings",
    owner: "evo",
    description:
      "Where each node's wall time went, in seconds (kit/evo/node-timing.ts nodeTiming, written by " +
      "kit/evo/node-step.ts through writeNodeTiming after the node).",
    columns: [
      col("run_id", "VARCHAR", "The run (runs.run_id); (run_id, node_id) is the primary key."),
      col("node_id", "VARCHAR", "The node (nodes.node_id)."),
      col("node_s", "DOUBLE", "Seconds of the whole step: plan, context, policy, evaluation, store, waits."),
      col("policy_s", "DOUBLE", "Seconds the policy took writing the program (its LLM calls included)."),
      col("context_s", "DOUBLE", "Seconds building the operator's context (memory synthesis included)."),
      col(
        "sandbox_s",
        "DOUBLE",
        "Seconds of the sandbox's own steps around the program: max(0, evaluate − program_s − scoring_s).",
      ),
      col("program_s", "DOUBLE", "Seconds of the program's process, start to exit (executions.wall_s; 0 when reused)."),
      col(
        "scoring_s",
        "DOUBLE",
        "Seconds of the hidden-test scorer (0 when nothing was scored or the record was reused).",
      ),
      col("store_s", "DOUBLE", "Seconds writing the node, its execution record and its card."),
      createdAt("the timing row"),
    ],
  },
  {
    table: "memory_cache",
    owner: "evo",
    description:
      "Model-written summaries kept so that no prompt is sent twice: memory synthesis (kit/evo/memory-store.ts " +
      "writeSummary) and the causal judge's verdicts (kit/evo/judge-cache-store.ts, for kit/erl).",
    columns: [
      col(
        "cache_key",
        "VARCHAR",
        "`<run_id>/<node_id>/<provider>:<model>` for a memory summary, `judge/<provider>:<model>/<prompt hash>` " +
          "for a judge verdict; primary key.",
      ),
      col("run_id", "VARCHAR", "The run whose node was summarised or judged; null for a judge call outside a run."),
      col("node_id", "VARCHAR", "The summarised node, or the first node of the judged segment."),
      col(
        "operator",
        "VARCHAR",
        "The operator whose context asked for the summary, 'judge' for judge verdicts, or null.",
      ),
      col("model", "VARCHAR", "The model id that wrote it."),
      col(
        "summary",
        "VARCHAR",
        "`<node_id>: <text>` (memory summary, also copied to cards.rich_summary) or the judge's verdicts as JSON.",
      ),
      createdAt("the entry"),
    ],
  },
];
