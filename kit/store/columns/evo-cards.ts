import { col, createdAt, type TableDoc } from "./table-doc.js";

/**
 * kit/evo's experience cards (docs/paper-map.md: Cards and memory): one per node, built by kit/evo/experience-card.ts
 * buildCard.
 */
export const EVO_CARD_TABLES: readonly TableDoc[] = [
  {
    table: "cards",
    owner: "evo",
    description:
      "The experience card of every node, built right after its evaluation from the run's earlier nodes only " +
      "(kit/evo/experience-card.ts buildCard), written with the node (kit/evo/node-store.ts writeNode). Nothing " +
      "in a card changes later except rich_summary.",
    columns: [
      col("run_id", "VARCHAR", "The run (runs.run_id)."),
      col("node_id", "VARCHAR", "The node (nodes.node_id)."),
      col("operator", "VARCHAR", "draft | improve | debug | crossover (nodes.operator)."),
      col("parents", "VARCHAR[]", "The node's parents' node_ids (nodes.parents)."),
      col(
        "generation_id",
        "INTEGER",
        "nodes.generation: the loop generation (island harnesses) or the lineage depth (tree harnesses).",
      ),
      col("score", "DOUBLE", "The validation score (nodes.valid_score): metric units and direction, not signed."),
      col(
        "fitness",
        "DOUBLE",
        "nodes.fitness: the validation score signed so that higher is always better (−valid_score for a " +
          "lower-is-better metric); null unless the node succeeded with a score.",
      ),
      col(
        "reward",
        "DOUBLE",
        "sandboxReward in [0, 1] from this fitness and the run's earlier ones: B = best, anchor = 16th best (the " +
          "lowest when fewer), " +
          "W = anchor − 0.25·(B − anchor), clip((fitness − W)/(B − W)); 0 for a failure.",
      ),
      col("status", "VARCHAR", "The sandbox feedback mode (nodes.status)."),
      col("error_signature", "VARCHAR", "The execution's error_signature; null on success."),
      col("sandbox_time_s", "DOUBLE", "Seconds of the program's run (executions.wall_s of its record)."),
      col("model_time_s", "DOUBLE", "Seconds of the policy's model calls for this node (LLM latency; 0 for grammar)."),
      col(
        "cost_usd",
        "DOUBLE",
        "US dollars of the policy's model calls for this node (0 for grammar or without prices).",
      ),
      col("prompt_tokens", "INTEGER", "Prompt tokens of the policy's model calls for this node (0 for grammar)."),
      col(
        "completion_tokens",
        "INTEGER",
        "Completion tokens of the policy's model calls for this node (0 for grammar).",
      ),
      col("imports", "VARCHAR[]", "Top-level Python modules the program imports (detectImports)."),
      col(
        "method_family",
        "VARCHAR",
        "The program's method family from its code and imports (method-family.ts, e.g. sklearn, xgboost, ensemble).",
      ),
      col(
        "family_explored",
        "INTEGER",
        "Cards of the same method family already in the run when this one was written.",
      ),
      col(
        "delta_vs_parent",
        "DOUBLE",
        "fitness − the highest fitness among its scored parents, in fitness units: > 0 means better than its best " +
          "parent whatever the metric's direction (e.g. RMSE 3.0 → 2.9 gives +0.1). Null when this node did " +
          "not score or no parent did (drafts).",
      ),
      col(
        "novelty",
        "DOUBLE",
        "1 / sqrt(1 + family_explored): 1 for the first of its family, falling with each one after.",
      ),
      col(
        "rank",
        "INTEGER",
        "1 + the run's earlier scored nodes with strictly higher fitness, when this card was written (ties share " +
          "a rank); null when the node did not score.",
      ),
      col(
        "champion_at_write",
        "BOOLEAN",
        "rank = 1: at least as good as every earlier scored node when the card was written. Several nodes of a " +
          "run have it; the run's final champion is runs.champion_node_id. (Named is_champion before migration 7.)",
      ),
      col(
        "selection_utility",
        "DOUBLE",
        "The selection utility of the parent(s) at the selection that produced this node (mean of two for " +
          "crossover); null for draft and debug and for the tree harnesses.",
      ),
      col("plan", "VARCHAR", "The policy's plan text (nodes.plan)."),
      col(
        "analysis",
        "VARCHAR",
        "One deterministic line on the outcome (experience-card.ts analyse): `success: validation <score> " +
          "(±<delta> vs best parent)` or `<status> [<signature>]: <last traceback line>`.",
      ),
      col(
        "rich_summary",
        "VARCHAR",
        "The memory model's summary of the node, written later when an operator's context asks for it " +
          "(kit/evo/memory-store.ts writeSummary); null until then and without a memory model.",
      ),
      createdAt("the card"),
      col(
        "lineage_depth",
        "INTEGER",
        "Drafts 0; improve/crossover = deepest parent + 1; debug keeps its parent's (migration 5; null in older rows).",
      ),
      col(
        "utility",
        "DOUBLE",
        "This node's own selection utility in its island once admitted (openmle: three-factor u_i; aira-evo: " +
          "min-max normalised fitness); null when not admitted or for tree harnesses (migration 5).",
      ),
      col(
        "prompt_chars",
        "INTEGER",
        "Characters of the operator prompt this node's context renders to (kit/policy buildPrompt + renderPrompt " +
          "at the LLM policy's defaults), recorded for every policy: the prompt size of the paper's efficiency " +
          "table (migration 10; null in older rows).",
      ),
    ],
  },
];
