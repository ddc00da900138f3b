// The paper's search experiments (MLE-bench Lite and NatureBench; docs/paper-map.md) as specs. Reference rows are
// the paper's numbers; the kit's rows come only from running the arms.
import type { ExperimentSpecInput } from "./experiment-spec.js";

// Two small built-ins with headroom (drafts differ by 37 % and 67 % of their mean score: bench/notebooks), one of each
// metric direction; penguins and wine, the smoke tasks before, are saturated (both arms 0.996).
const SMOKE_TASKS = { from: "builtin" as const, ids: ["cars", "seattle-weather"] };
// Four built-ins with headroom and both metric directions (drafts differ by 26–191 % of their mean score:
// bench/notebooks/runs/2026-12-02-draft-spread.md). 2 initial drafts, so 8 of the 10 steps are Improve, Debug or
// Crossover, where harnesses differ (at evolve's 5 drafts a 6-step run's champion was a draft in every cell, the
// same for both harnesses): a few minutes on 2 cores with the warm start. The built-ins share data with corpus
// `train` tasks, so for a loop trained there the model comparison is a check, not a held-out result.
const QUICK_TASKS = { from: "builtin" as const, ids: ["cars", "seattle-weather", "diabetes", "co2-concentration"] };
const QUICK = { tasks: QUICK_TASKS, repeats: 4, steps: 10 } as const;
const QUICK_SETTINGS = { gen0Drafts: 2 };
const LAPTOP_TASKS = { from: "suite", suite: "dev", count: 10 } as const;
const PAPER = { tasks: { from: "mlebench-lite" }, repeats: 3, steps: 200, hoursPerTask: 12, gpuCapGiB: 12 } as const;
const MEDALS_NOTE =
  "the laptop rows' Medal Average and Human Rank are graded on the kit's corpus leaderboards (a reference zoo of 25 " +
  "standard pipelines scored on each task's hidden test, built by openmle leaderboards build): the kit's " +
  "construction, not the paper's, which grades on Kaggle's MLE-bench leaderboards; a task without one is left out " +
  "of them. The normalised score is secondary: (score − trivial)/(reference − trivial) against kit/eval's " +
  "baselines, clipped to [−1, 2] and floored at 0 per run; * marks an arm whose tasks include a weak reference " +
  "(it closes under 10 % of the way from trivial to a perfect score, so the score says little)";

export const SEARCH_EXPERIMENTS: ExperimentSpecInput[] = [
  {
    id: "model-fixed-harness",
    title: "Base → trained model at a fixed harness (OpenMLE-Evo)",
    paperItem: "Main table, model rows (same OpenMLE-Evo harness; docs/paper-map.md)",
    kind: "search",
    question: "Does training the operator policy on executed search make the same harness find better programs?",
    metrics: ["valid-rate", "medal-average", "human-rank"],
    rows: "arm",
    laptopNote: MEDALS_NOTE,
    presets: {
      smoke: {
        tasks: SMOKE_TASKS,
        repeats: 1,
        steps: 2,
        arms: [
          { id: "uniform", label: "uniform (stand-in for a base model)", policy: "uniform", harness: "openmle" },
          { id: "trained", label: "loop generation 1", policy: "loop:g1", harness: "openmle" },
        ],
      },
      quick: {
        ...QUICK,
        arms: [
          {
            id: "uniform",
            label: "uniform (stand-in for a base model)",
            policy: "uniform",
            harness: "openmle",
            settings: QUICK_SETTINGS,
          },
          { id: "g2", label: "loop generation 2", policy: "loop:g2", harness: "openmle", settings: QUICK_SETTINGS },
        ],
      },
      laptop: {
        tasks: LAPTOP_TASKS,
        repeats: 3,
        steps: 10,
        arms: [
          { id: "uniform", label: "uniform (stand-in for a base model)", policy: "uniform", harness: "openmle" },
          { id: "default", label: "default (hand-set parameters)", policy: "default", harness: "openmle" },
          { id: "g1", label: "loop generation 1", policy: "loop:g1", harness: "openmle" },
          { id: "g2", label: "loop generation 2", policy: "loop:g2", harness: "openmle" },
        ],
      },
      paper: {
        ...PAPER,
        arms: [
          { id: "base-35b", label: "Qwen3.6-35B-A3B base", policy: "endpoint:qwen3.6-35b-a3b", harness: "openmle" },
          { id: "trained-35b", label: "Frontis-MA1-35B", policy: "endpoint:frontis-ma1-35b", harness: "openmle" },
          { id: "base-30b", label: "30B backbone base", policy: "endpoint:base-30b", harness: "openmle" },
          { id: "trained-30b", label: "30B backbone trained", policy: "endpoint:trained-30b", harness: "openmle" },
        ],
      },
    },
    reference: [
      { row: "Qwen3.6-35B-A3B base + OpenMLE-Evo", values: { "medal-average": "39.39 ± 5.67" } },
      { row: "Frontis-MA1-35B + OpenMLE-Evo", values: { "medal-average": "60.61 ± 7.73" } },
      { row: "30B backbone base + OpenMLE-Evo", values: { "medal-average": "34.85" } },
      { row: "30B backbone trained + OpenMLE-Evo", values: { "medal-average": "53.03" } },
    ],
  },
  {
    id: "harness-fixed-model",
    title: "Harness at a fixed model: OpenMLE-Evo vs AIRA-Evo, and Evo-Max",
    paperItem: "Main table, harness rows (same model, other harness; Evo-Max; docs/paper-map.md)",
    kind: "search",
    question: "With the policy fixed, does operator-conditioned context (and Evo-Max's priors and async search) help?",
    metrics: ["valid-rate", "medal-average", "human-rank"],
    rows: "arm",
    laptopNote: MEDALS_NOTE,
    presets: {
      smoke: {
        tasks: SMOKE_TASKS,
        repeats: 1,
        steps: 2,
        arms: [
          { id: "openmle", label: "OpenMLE-Evo", policy: "default", harness: "openmle" },
          { id: "aira-evo", label: "AIRA-Evo", policy: "default", harness: "aira-evo" },
        ],
      },
      quick: {
        ...QUICK,
        arms: [
          { id: "aira-evo", label: "AIRA-Evo", policy: "default", harness: "aira-evo", settings: QUICK_SETTINGS },
          { id: "openmle", label: "OpenMLE-Evo", policy: "default", harness: "openmle", settings: QUICK_SETTINGS },
        ],
      },
      laptop: {
        tasks: LAPTOP_TASKS,
        repeats: 3,
        steps: 10,
        arms: [
          { id: "openmle", label: "OpenMLE-Evo", policy: "default", harness: "openmle" },
          { id: "aira-evo", label: "AIRA-Evo", policy: "default", harness: "aira-evo" },
          {
            id: "evo-max",
            label: "Evo-Max (priors, 2 async workers)",
            policy: "default",
            harness: "openmle",
            settings: { priors: true, workers: 2 },
          },
        ],
      },
      paper: {
        ...PAPER,
        arms: [
          {
            id: "openmle",
            label: "Frontis-MA1-35B + OpenMLE-Evo",
            policy: "endpoint:frontis-ma1-35b",
            harness: "openmle",
          },
          {
            id: "aira-evo",
            label: "Frontis-MA1-35B + AIRA-Evo",
            policy: "endpoint:frontis-ma1-35b",
            harness: "aira-evo",
          },
          {
            id: "evo-max",
            label: "Frontis-MA1-35B + Evo-Max",
            policy: "endpoint:frontis-ma1-35b",
            harness: "openmle",
            settings: { priors: true, workers: 4 },
          },
          {
            id: "glm-evo-max",
            label: "GLM-5.2 + Evo-Max",
            policy: "endpoint:glm-5.2",
            harness: "openmle",
            settings: { priors: true, workers: 4 },
          },
        ],
      },
    },
    reference: [
      { row: "Frontis-MA1-35B + OpenMLE-Evo", values: { "medal-average": "60.61 ± 7.73" } },
      { row: "Frontis-MA1-35B + original AIRA-Evo", values: { "medal-average": "53.03" } },
      {
        row: "Frontis-MA1-35B + Evo-Max",
        values: { "medal-average": "71.21 ± 8.57 (validation 68.18)", "human-rank": 0.8126 },
      },
      { row: "GLM-5.2 + Evo-Max", values: { "medal-average": "66.67 ± 8.57" } },
    ],
  },
  {
    id: "modality",
    title: "Per-modality medal rate, base → trained",
    paperItem: "Per-modality breakdown (docs/paper-map.md: Per-modality)",
    kind: "search",
    question: "Which modalities does training help, at the same harness?",
    metrics: ["tasks", "medal-rate"],
    rows: "modality",
    layout: "modality",
    sharesCellsWith: "model-fixed-harness",
    laptopNote: MEDALS_NOTE,
    presets: {},
    reference: [
      { row: "image (9 tasks)", values: { "medal-rate": "44 → 52" } },
      { row: "text (5 tasks)", values: { "medal-rate": "33 → 60" } },
      { row: "tabular (4 tasks)", values: { "medal-rate": "42 → 50" } },
      { row: "audio (2 tasks)", values: { "medal-rate": "33 → 100" } },
      { row: "multimodal (2 tasks)", values: { "medal-rate": "33 → 83" } },
    ],
  },
  {
    id: "search-efficiency",
    title: "Search efficiency, OpenMLE-Evo vs AIRA-Evo (same checkpoint)",
    paperItem: "Search-efficiency comparison (66 matched task-runs; docs/paper-map.md)",
    kind: "search",
    question: "At matched runs, does OpenMLE-Evo spend fewer nodes and tokens per new record, with smaller prompts?",
    metrics: ["nodes", "tokens", "new-record-updates-per-token", "improve-prompt-p99", "late-gain-share"],
    rows: "arm",
    layout: "efficiency",
    sharesCellsWith: "harness-fixed-model",
    laptopNote: "the grammar policy has no tokens: prompt sizes are of the rendered prompt text (characters)",
    presets: {},
    reference: [
      {
        row: "OpenMLE-Evo vs AIRA-Evo, 66 task-runs",
        values: {
          nodes: "−12.4%",
          tokens: "−41.7%",
          "new-record-updates-per-token": "+84.3%",
          "improve-prompt-p99": "389K → 54.3K characters",
          "late-gain-share": "85.0% (leaf-classification), 91.9% (mlsp-2013-birds)",
        },
      },
    ],
  },
  {
    id: "solution-ceiling",
    title: "The solution ceiling: grade breakdown of successes per arm",
    paperItem: "Grade distribution (the main table's arms; docs/paper-map.md)",
    kind: "search",
    question: "Does training raise medals at the top (gold) or only lift programs over the bronze line?",
    metrics: ["gold", "silver", "bronze", "none"],
    rows: "grade",
    layout: "ceiling",
    sharesCellsWith: "model-fixed-harness",
    laptopNote:
      "laptop rows split successes by medal on the kit's corpus leaderboards (reference-zoo leaderboards: the kit's " +
      "construction, not the paper's Kaggle ones) when every task has one; else by normalised score (≥ 1: beats " +
      "the reference; 0–1; ≤ 0)",
    presets: {},
    reference: [
      {
        row: "Frontis-MA1-35B + OpenMLE-Evo (any medal)",
        values: { "medal-average": "60.61 ± 7.73", split: "not reported by the paper" },
      },
    ],
  },
  {
    id: "naturebench",
    title: "NatureBench-style gap to a reference: Match / Surpass",
    paperItem: "NatureBench Lite (10 tasks, 4 h, no web; docs/paper-map.md)",
    kind: "search",
    question: "How often does the kit's search match (g ≥ 0) or surpass (g > 0.1) a task's reference score?",
    metrics: ["match-sota", "surpass-sota"],
    rows: "arm",
    laptopNote:
      "the reference is kit/eval's reference baseline of each dev-suite task, not a published SOTA; NatureBench " +
      "itself is not in the kit, so there is no paper preset",
    presets: {
      smoke: {
        tasks: SMOKE_TASKS,
        repeats: 1,
        steps: 2,
        arms: [{ id: "default-openmle", label: "default + OpenMLE-Evo", policy: "default", harness: "openmle" }],
      },
      laptop: {
        tasks: LAPTOP_TASKS,
        repeats: 3,
        steps: 10,
        arms: [
          { id: "uniform-aira", label: "uniform + AIRA-Evo", policy: "uniform", harness: "aira-evo" },
          { id: "g1-aira", label: "generation 1 + AIRA-Evo (model swap)", policy: "loop:g1", harness: "aira-evo" },
          {
            id: "uniform-openmle",
            label: "uniform + OpenMLE-Evo (harness swap)",
            policy: "uniform",
            harness: "openmle",
          },
          { id: "g1-openmle", label: "generation 1 + OpenMLE-Evo (both)", policy: "loop:g1", harness: "openmle" },
        ],
      },
    },
    reference: [
      { row: "model swap", values: { "match-sota": "50% → 70%" } },
      { row: "harness swap", values: { "match-sota": "20% → 50%" } },
      { row: "model + harness", values: { "match-sota": "7/10", "surpass-sota": "3/10" } },
    ],
  },
  {
    id: "coding-harness",
    title: "General coding harnesses (reference only: the kit has no coding agent)",
    paperItem: "Main table, coding-harness rows (single runs; docs/paper-map.md)",
    kind: "reference-only",
    question: "None in the kit: these rows are the paper's, shown beside Table 1 for context.",
    metrics: ["medal-average", "human-rank"],
    rows: "arm",
    presets: {},
    reference: [
      { row: "GPT-5.6 Sol + Codex", values: { "medal-average": 72.73, "human-rank": 0.8891 } },
      { row: "Kimi K3 + Claude Code", values: { "medal-average": 72.73, "human-rank": 0.8574 } },
      { row: "GPT-5.5 + Codex", values: { "medal-average": 68.18 } },
      { row: "Claude Opus 4.8 + Claude Code", values: { "medal-average": 63.64 } },
      { row: "Gemini 3.5 Flash + Gemini CLI", values: { "medal-average": 63.64 } },
      { row: "Claude Sonnet 5 + Claude Code", values: { "medal-average": 59.09 } },
    ],
  },
];
