// Benchmark (b): LLM mode against the replay server (a real OpenAI-compatible HTTP server on
// 127.0.0.1 replying with scripted programs), OpenMLE-Evo vs AIRA-Evo over long runs.
//   npx tsx bench/evo/llm-mode.ts --steps 200 --out bench/evo/results
// MEASURED: the real LLM policy's prompts (characters per operator, p50/p99) and the tokens of every
// model call (operator calls + memory synthesis; Qwen3-tokenizer counts from the replay server).
// NOT MEASURED: model quality. Programs are never executed: an evaluate stub (in this benchmark
// only) returns synthetic execution records derived from a hash of the code (15% failures).
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { evolve, type EvoEvent } from "../../kit/evo/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { createOpenAIModel, replies, startReplayServer, type LanguageModel } from "../../kit/llm/index.js";
import { createLlmPolicy } from "../../kit/policy/index.js";
import type { ExecutionRecord, SandboxJob } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const { values: a } = parseArgs({ options: { steps: { type: "string", default: "200" }, out: { type: "string", default: "bench/evo/results" }, seed: { type: "string", default: "1" } } });
const FAMILIES = ["from sklearn.ensemble import RandomForestClassifier as M", "import xgboost\nfrom xgboost import XGBClassifier as M", "import lightgbm\nfrom lightgbm import LGBMClassifier as M", "from sklearn.linear_model import LogisticRegression as M", "from catboost import CatBoostClassifier as M"];
const program = (i: number) => `import os\nimport pandas as pd\n${FAMILIES[i % FAMILIES.length]}\n# scripted variant ${i}\n` +
  Array.from({ length: 30 + (i % 20) }, (_, k) => `feature_${k} = ${k} * ${i % 7} + 1  # derived column ${k}`).join("\n") +
  `\nprint("Final Validation Score: 0.8")\n`;
const server = await startReplayServer((req) => {
  const memory = req.messages[0]?.content.startsWith("Summarise one node");
  return memory
    ? replies.text(`Tried a ${["forest", "boosted", "linear"][req.index % 3]} model with engineered features; validation moved slightly. Keep the feature set, avoid the failing import.`)
    : replies.text(`Plan: variant ${req.index}, adjust the model and features.\n\`\`\`python\n${program(req.index)}\`\`\`\n`);
});

/** Synthetic validation score: a search that slowly improves (0.70 → ~0.90) plus ±0.04 noise from the code hash. */
const trend = (nodeId: string, u: number) => 0.7 + 0.2 * (1 - Math.exp(-Number(nodeId.replace(/\D/g, "")) / 60)) + 0.08 * (u - 0.5);

/** Synthetic record (benchmark only): status from a hash of the code, score from `trend`. */
async function syntheticEvaluate(job: SandboxJob): Promise<ExecutionRecord> {
  const h = createHash("sha256").update(job.code ?? "").digest();
  const u = h.readUInt32BE(0) / 2 ** 32;
  const fail = u < 0.15;
  const t = new Date();
  return {
    executionId: `syn-${job.runId}-${job.nodeId}`, idempotencyKey: h.toString("hex").slice(0, 16), taskId: job.task.meta.id, backend: "synthetic",
    status: fail ? "runtime_error" : "success", validScore: fail ? null : trend(job.nodeId ?? "n0", h.readUInt32BE(4) / 2 ** 32), testScore: null,
    errorType: fail ? "ValueError" : null, errorSignature: fail ? ["import_error", "column_mismatch"][h[8]! % 2]! : null,
    traceback: fail ? "Traceback (most recent call last):\n  File \"code/main.py\", line 3\nValueError: synthetic failure" : null,
    stdoutTail: fail ? "" : "Final Validation Score: 0.8", stderrTail: "", wallS: 1, cpuS: 1, peakMemMb: null, artifacts: [],
    codeHash: h.toString("hex").slice(0, 16), limits: { timeoutS: 600, memoryMb: 4096, cpus: 1, gpus: 0, diskMb: 8192 }, startedAt: t, endedAt: t,
  };
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : 0; };
const task = await resolveTask("penguins");
const results: Record<string, unknown>[] = [];
try {
  for (const harness of ["openmle", "aira-evo"] as const) {
    const base = createOpenAIModel({ baseURL: server.baseURL, model: "replay-model", maxRetries: 0 });
    const tokens = { operator: 0, memory: 0, memoryCalls: 0 };
    const model: LanguageModel = { provider: base.provider, modelId: base.modelId, chat: async (r) => {
      const res = await base.chat(r);
      const n = res.usage.promptTokens + res.usage.completionTokens;
      if (r.purpose === "memory") { tokens.memory += n; tokens.memoryCalls++; } else tokens.operator += n;
      return res;
    } };
    const prompts: { op: string; chars: number; step: number }[] = [];
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "bench-llm-")), "ws"));
    const t0 = Date.now();
    try {
      await evolve({ task, policy: createLlmPolicy(model), workspace: ws, memoryModel: model, evaluate: syntheticEvaluate,
        config: { harness, steps: Number(a.steps), seed: Number(a.seed) },
        onEvent: (e: EvoEvent) => { if (e.type === "node") prompts.push({ op: e.node.operator, chars: e.node.usage?.promptChars ?? 0, step: e.step }); } });
    } finally {
      ws.close();
    }
    const n = prompts.length;
    const row: Record<string, unknown> = { harness, nodes: n, tokensPerNode: Math.round((tokens.operator + tokens.memory) / n), operatorTokensPerNode: Math.round(tokens.operator / n), memoryTokensPerNode: Math.round(tokens.memory / n), memoryCalls: tokens.memoryCalls, wallS: Math.round((Date.now() - t0) / 1000) };
    for (const op of ["draft", "improve", "debug", "crossover"]) {
      const xs = prompts.filter((p) => p.op === op).map((p) => p.chars);
      row[`${op}_n`] = xs.length; row[`${op}_p50`] = pct(xs, 50); row[`${op}_p99`] = pct(xs, 99);
    }
    const imp = prompts.filter((p) => p.op === "improve");
    const half = Number(a.steps) / 2;
    row.improve_p99_first_half = pct(imp.filter((p) => p.step < half).map((p) => p.chars), 99);
    row.improve_p99_second_half = pct(imp.filter((p) => p.step >= half).map((p) => p.chars), 99);
    results.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
} finally {
  await server.close();
}
mkdirSync(a.out!, { recursive: true });
writeFileSync(join(a.out!, "llm-mode.json"), `${JSON.stringify(results, null, 2)}\n`);
const [o, r] = results as Record<string, number>[];
process.stdout.write(`tokens per node: openmle ${o!.tokensPerNode} vs aira-evo ${r!.tokensPerNode} (ratio ${(o!.tokensPerNode / r!.tokensPerNode).toFixed(2)})\n`);
