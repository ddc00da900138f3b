import { z } from "zod";

/** The sandbox's Python stack (scripts/setup.sh): what a program may import. */
export const DEFAULT_PACKAGES = [
  "numpy",
  "pandas",
  "scikit-learn",
  "scipy",
  "xgboost",
  "torch",
  "torchvision",
  "statsmodels",
  "Pillow",
  "soundfile",
];

/** How the LLM policy builds prompts and handles replies (the endpoint itself is `llm`). */
export const LlmPolicyConfig = z.object({
  headRows: z.number().int().min(0).default(5).describe("Rows of train.csv shown in the data overview."),
  maxLineChars: z
    .number()
    .int()
    .positive()
    .default(300)
    .describe("Longer lines of the train.csv head are cut (long text cells)."),
  maxColumns: z
    .number()
    .int()
    .positive()
    .default(40)
    .describe("Columns listed in the data overview; the rest are counted."),
  maxCodeChars: z
    .number()
    .int()
    .positive()
    .default(16_000)
    .describe("A parent's program longer than this is cut in the middle."),
  maxTracebackChars: z
    .number()
    .int()
    .positive()
    .default(3000)
    .describe("Traceback characters shown (the end is kept)."),
  maxStdoutChars: z.number().int().positive().default(1500).describe("Output-tail characters shown (the end is kept)."),
  maxFailures: z
    .number()
    .int()
    .min(0)
    .default(8)
    .describe(
      "Related attempts shown to Debug (same error signature first, then the most recent; the paper: up to 8).",
    ),
  listRelatives: z
    .enum(["auto", "always", "never"])
    .default("auto")
    .describe(
      "List ancestors and siblings as one-liners: auto = only when the context has no memory block " +
        "(evo's memory already lists them).",
    ),
  packages: z
    .array(z.string())
    .default(DEFAULT_PACKAGES)
    .describe("Python packages the program may use, stated in the contract."),
  temperature: z
    .number()
    .min(0)
    .max(2)
    .nullable()
    .default(null)
    .describe("Sampling temperature for operator calls; null uses llm.temperature."),
  maxTokens: z
    .number()
    .int()
    .positive()
    .nullable()
    .default(null)
    .describe("Completion-token limit for operator calls; null uses llm.maxTokens."),
  onModelError: z
    .enum(["throw", "missing_code"])
    .default("throw")
    .describe(
      "When the model call fails after retries: throw the LlmError, or return code null (the sandbox " +
        "records missing_code).",
    ),
});
export type LlmPolicyConfig = z.infer<typeof LlmPolicyConfig>;
export type LlmPolicyConfigInput = z.input<typeof LlmPolicyConfig>;
