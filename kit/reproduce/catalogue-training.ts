// The paper's training experiments (Fig. 3, Fig. 6 and the rows of docs/paper-map.md): RL reward design, asynchronous
// rollout, SFT composition and the Gym funnel, as specs. Reference rows are the paper's numbers; the kit's come only
// from running the arms.
import { LOOP_PRESET_SETTINGS, PAPER_COMPOSITION } from "../erl/index.js";
import { PAPER_FUNNEL } from "../gym/index.js";
import type { ExperimentSpecInput } from "./experiment-spec.js";

const SMOKE_TASKS = { from: "builtin" as const, ids: ["penguins", "wine"] };
const TRAIN_TASKS = { from: "suite", suite: "train", count: 30 } as const;
/** An rl preset's size: `steps` trainer steps of `groupsPerStep` groups of `group` programs. */
const rl = (steps: number, groupsPerStep: number, group: number) => ({ steps, groupsPerStep, group });
const pct = (x: number) => `${x.toFixed(1)}%`;
/** The loop's laptop evolve settings for an sft teacher's runs, less what the experiment sets (steps, harness). */
const { steps: _steps, harness: _harness, ...LAPTOP_TEACHER_EVOLVE } = LOOP_PRESET_SETTINGS.laptop.evolve;

export const TRAINING_EXPERIMENTS: ExperimentSpecInput[] = [
  {
    id: "rl-reward-design",
    title: "RL reward design: entropic advantage and adaptive bounds",
    paperItem: "RL reward design (the paper's Fig. 6)",
    kind: "rl",
    question:
      "On the same groups, how much more advantage does the entropic rule give the group's best candidate than " +
      "group normalisation, and does the group-best reward rise faster with adaptive bounds than with static ones?",
    metrics: ["best-advantage-entropic", "best-advantage-group-normalised", "group-best-reward", "group-best-fixed"],
    rows: "arm",
    presets: {
      smoke: {
        tasks: SMOKE_TASKS,
        repeats: 1,
        ...rl(1, 1, 2),
        arms: [{ id: "adaptive", label: "adaptive bounds + entropic", policy: "default" }],
      },
      laptop: {
        tasks: TRAIN_TASKS,
        repeats: 3,
        ...rl(12, 4, 8),
        arms: [
          { id: "adaptive", label: "adaptive bounds + entropic", policy: "default" },
          {
            id: "static",
            label: "static bounds + entropic",
            policy: "default",
            settings: { bounds: { anchor: "static" } },
          },
        ],
      },
    },
    reference: [
      {
        row: "best candidate's mean processed advantage",
        values: { "best-advantage-group-normalised": 1.58, "best-advantage-entropic": "6.39 (4.0×)" },
      },
      { row: "smoothed group-best reward", values: { "group-best-reward": "0.666 (+0.089 over the previous design)" } },
      { row: "early-harness test medal rate", values: { "medal-rate": "24.2 ± 5.7 → 34.8 ± 4.3" } },
    ],
  },
  {
    id: "async-rl",
    title: "Asynchronous vs synchronous RL step time",
    paperItem: "Asynchronous rollout (docs/paper-map.md)",
    kind: "rl",
    question: "How much shorter is an RL step when groups run independently, and do per-task step counts stay even?",
    metrics: ["mean-step-minutes", "speed-up", "per-task-steps-cv"],
    rows: "arm",
    presets: {
      smoke: {
        tasks: SMOKE_TASKS,
        repeats: 1,
        ...rl(1, 1, 2),
        arms: [
          { id: "sync", label: "synchronous", policy: "default", settings: { mode: "sync" } },
          { id: "async", label: "asynchronous", policy: "default", settings: { mode: "async" } },
        ],
      },
      laptop: {
        tasks: TRAIN_TASKS,
        repeats: 3,
        ...rl(8, 4, 8),
        arms: [
          { id: "sync", label: "synchronous", policy: "default", settings: { mode: "sync" } },
          { id: "async", label: "asynchronous", policy: "default", settings: { mode: "async" } },
        ],
      },
    },
    reference: [
      { row: "synchronous, 40 matched steps", values: { "mean-step-minutes": 97.0, "per-task-steps-cv": "1.56%" } },
      {
        row: "asynchronous, 40 matched steps",
        values: { "mean-step-minutes": 50.8, "speed-up": "1.91×", "per-task-steps-cv": "2.06%" },
      },
    ],
  },
  {
    id: "sft-composition",
    title: "SFT composition by operator and path",
    paperItem: "Execution-grounded SFT collection (docs/paper-map.md: SFT collection)",
    kind: "sft",
    question: "Which operators and paths does execution-grounded filtering keep, beside the paper's 26,259 examples?",
    metrics: ["examples", "share"],
    rows: "operator",
    presets: {
      smoke: {
        tasks: SMOKE_TASKS,
        repeats: 1,
        steps: 2,
        arms: [
          {
            id: "default",
            label: "default teacher",
            policy: "default",
            settings: { maxAttempts: 2, batchSize: 2, perTaskCap: 2 },
          },
        ],
      },
      laptop: {
        tasks: TRAIN_TASKS,
        repeats: 2,
        steps: 10,
        arms: [
          {
            id: "default",
            label: "default teacher",
            policy: "default",
            settings: { maxAttempts: 8 },
            // the loop's laptop teacher runs: 3 initial drafts (Crossover from step 7), 2 debug attempts, 2 lanes
            teacherEvolve: LAPTOP_TEACHER_EVOLVE,
          },
        ],
      },
    },
    reference: Object.entries(PAPER_COMPOSITION).map(([operator, share]) => ({
      row: operator,
      values: { share: pct(share), examples: Math.round((26_259 * share) / 100) },
    })),
  },
  {
    id: "gym-funnel",
    title: "The Gym funnel: candidates → packages → accepted tasks",
    paperItem: "Sources and the quality funnel (the paper's Fig. 3)",
    kind: "funnel",
    question: "What share of candidate sources survives each stage of the kit's funnel, beside the paper's?",
    metrics: ["count", "share"],
    rows: "stage",
    laptopNote: "the kit's sources are installed packages' datasets, not Kaggle competitions: an analogy of stages",
    presets: {
      smoke: {
        tasks: { from: "none" },
        repeats: 1,
        steps: 1,
        candidates: ["r-datasets-nottem", "sklearn-iris"],
        arms: [{ id: "corpus", label: "openmle task build-corpus" }],
      },
      laptop: {
        tasks: { from: "none" },
        repeats: 1,
        steps: 1,
        arms: [{ id: "corpus", label: "openmle task build-corpus" }],
      },
    },
    reference: PAPER_FUNNEL.stages.map((s) => ({
      row: s.label,
      values: { count: s.count, share: pct(100 * s.share) },
    })),
  },
];
