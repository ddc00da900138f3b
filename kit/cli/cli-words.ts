/**
 * Library errors name library settings (`llm.baseURL`, `{ readOnly: true }`); on the command line the
 * same advice must name flags. One table maps each setting the kit's errors mention to what a CLI
 * user types; `runCli` passes every known error's message through `inCliWords`.
 */
export const CLI_WORDS: readonly (readonly [RegExp, string])[] = [
  [/\bllm\.baseURL\b/g, "--base-url"],
  [/\bllm\.model\b/g, "--model"],
  [/\bllm\.maxTokens\b/g, "--max-tokens"],
  [/\bllm\.extraBody\b/g, "--llm-extra"],
  [/\bllm\.temperature\b/g, "--temperature"],
  [
    /Set llm\.apiKey or the environment variable named by llm\.apiKeyEnv \(default OPENAI_API_KEY\)\./g,
    "Export the key in OPENAI_API_KEY, or name another variable with --api-key-env NAME.",
  ],
  [/\bllm\.apiKeyEnv\b/g, "--api-key-env"],
  [
    /call trustPackages\(true\) \(or set OPENMLE_TRUST_PACKAGES=1\)/g,
    "pass --trust-package (or set OPENMLE_TRUST_PACKAGES=1)",
  ],
  // The queue's key and a worker's caps (errors of kit/sandbox's queue, on the client or the worker).
  [/\bkeyFile\b/g, "--queue-key-file"],
  [/\bcaps\.timeoutS\b/g, "--max-timeout"],
  [/\bcaps\.memoryMb\b/g, "--max-memory"],
  [/\bcaps\.diskMb\b/g, "--max-disk"],
  [/\bcaps\.cpus\b/g, "--max-cpus"],
  [/the worker's gpus option/g, "openmle worker --gpus"],
  // Settings without a flag of their own: say where they are set.
  [
    /\bllm\.(concurrency|maxRetries|timeoutMs|retryBaseDelayMs|retryMaxDelayMs|maxRetryAfterMs)\b/g,
    "the llm setting $1 (openmle config schema llm)",
  ],
  [
    /open this workspace with \{ readOnly: true \} once it is closed\./g,
    "read it with a read-only command (openmle workspace info|query|export, openmle runs list) once it is closed.",
  ],
  [
    /Open it without readOnly to create one\./g,
    "A command that writes (e.g. openmle evolve --workspace DIR) creates it.",
  ],
  [/Open it without readOnly to write\./g, "Use a command that writes (e.g. openmle workspace import) instead."],
];

/** The message with library setting names replaced by the CLI's flags and commands. */
export function inCliWords(message: string): string {
  return CLI_WORDS.reduce((m, [re, words]) => m.replace(re, words), message);
}
