/**
 * The paper's funnel for its Kaggle competition branch (the paper's Fig. 3; docs/paper-map.md: Fig. 3 funnel):
 * ~11,000 competitions → leaderboard-length screen, de-duplication against MLE-bench, licence and rules review →
 * 3,972 (36%) → automatic package build + metric verification → 2,839 (26%) → semantic quality gate → 2,240 (20%).
 * Shares are of the ~11,000 competitions, as the paper prints them.
 */
export const PAPER_FUNNEL = {
  citation: "the paper's Fig. 3, Kaggle competition branch (docs/paper-map.md: Fig. 3 funnel)",
  stages: [
    { label: "competitions (sources)", count: 11_000, share: 1 },
    { label: "screen, de-duplication, licence and rules review", count: 3_972, share: 0.36 },
    { label: "package build + metric verification", count: 2_839, share: 0.26 },
    { label: "semantic quality gate", count: 2_240, share: 0.2 },
  ],
  /** The accepted tasks' modality mix over all branches (docs/paper-map.md: Corpus composition). */
  modalities: {
    tabular: 0.44,
    image: 0.18,
    time_series: 0.13,
    multimodal: 0.11,
    text: 0.09,
    audio: 0.02,
    video: 0.01,
    other: 0.02,
  },
  taskTypes: { classification: 0.56, regression: 0.31 },
} as const;

/**
 * The paper stage each kit stage stands beside (an analogy, not an identity: the kit's sources are installed
 * packages, not competitions). quality and headroom are the kit's own deterministic checks and have no paper
 * count; the kit's frame stage plays the paper's screen (it drops what cannot be framed as a task).
 */
export const PAPER_STAGE_OF = {
  export: 0,
  frame: 1,
  build: 2,
  quality: null,
  headroom: null,
  gate: 3,
} as const;
