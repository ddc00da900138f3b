import { col, type TableDoc } from "./table-doc.js";

/** kit/llm's table: every chat call made through kit/llm/recording-model.ts recordingModel. */
export const LLM_TABLES: readonly TableDoc[] = [
  {
    table: "llm_calls",
    owner: "llm",
    description:
      "One row per language-model call (successful or failed), appended in call order by " +
      "kit/llm/recording-model.ts recordingModel. The grammar policy makes none.",
    columns: [
      col("call_id", "VARCHAR", "A random UUID per call (recordingModel's newId); primary key."),
      col("run_id", "VARCHAR", "The run the call served (runs.run_id or rl_runs.run_id); null outside a run."),
      col("node_id", "VARCHAR", "The node the call served (nodes.node_id); null when it served no single node."),
      col(
        "operator",
        "VARCHAR",
        "The operator the call served (draft | improve | debug | crossover) when the caller names it.",
      ),
      col(
        "purpose",
        "VARCHAR",
        "What asked: 'operator' (the LLM policy writing a program), 'memory' (memory synthesis, kit/evo), " +
          "'judge' (the causal or hack judge, kit/erl), 'quality_gate' (the semantic gate, kit/gym).",
      ),
      col("provider", "VARCHAR", "The model's provider name (LanguageModel.provider, e.g. 'openai')."),
      col("model", "VARCHAR", "The model id sent to the endpoint (LanguageModel.modelId)."),
      col("prompt_chars", "INTEGER", "Characters of the messages' contents, summed (promptChars)."),
      col("prompt_tokens", "INTEGER", "Prompt tokens of the call (see tokens_source); null when the call failed."),
      col("completion_tokens", "INTEGER", "Completion tokens of the call; null when the call failed."),
      col(
        "tokens_source",
        "VARCHAR",
        "Who counted the tokens: 'provider' (the endpoint's usage) or 'tokenizer' (counted locally); null on failure.",
      ),
      col("latency_ms", "DOUBLE", "Milliseconds from sending the request to its answer or failure."),
      col(
        "cost_usd",
        "DOUBLE",
        "US dollars: tokens × the configured price per million tokens (callCostUsd); 0 without prices; null on " +
          "failure.",
      ),
      col(
        "status",
        "VARCHAR",
        "'ok', or the failure's kind: rate_limited | server_error | timeout | connection | bad_request | auth | " +
          "not_found | error.",
      ),
      col("error", "VARCHAR", "`<ErrorName>: <message>` of a failed call; null when it succeeded."),
      col(
        "prompt",
        "VARCHAR",
        "The exact messages as a JSON array of {role, content} (promptText); null when text storage is off.",
      ),
      col("completion", "VARCHAR", "The model's answer text; null when it failed or text storage is off."),
      col("created_at", "TIMESTAMP", "When the call was sent (UTC, from recordingModel's clock)."),
    ],
  },
];
