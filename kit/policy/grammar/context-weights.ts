/**
 * The default context-label weights (option key → label → weight), measured on the built-in core suite (never the
 * held-out suite) by bench/policy/context-fit.ts with fitContextWeights: 2,320 labelled decisions from 64
 * exploration runs of 20 steps with every weight 0 — penguins, cars, seattle-weather, co2-concentration,
 * breast-cancer, wine and diabetes × OpenMLE-Evo, AIRA-Evo, AIDE and MCTS × seeds 1–2 at the 300 s program limit,
 * plus cars, seattle-weather, diabetes and wine × OpenMLE-Evo and AIDE × seed 1 at a 2 s limit (where families time
 * out). Labels absent here measured 0: too little support (failed2, give_up, ...) or a log ratio that rounds to 0.
 * The table and its reading: bench/policy/README.md ("Context weights").
 */
export const CONTEXT_WEIGHTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  "crossover.mode": {
    mix: 0.559,
  },
  "draft.model": {
    best: 0.038,
    "early:best": 0.042,
    "early:untried": -0.001,
    far: -0.12,
    mean_far: -0.091,
    untried: -0.001,
  },
  "improve.add_family": {
    best: -0.038,
    crowded: 0.416,
    "early:untried": 0.92,
    "failed:timeout": 0.276,
    far: -0.527,
    "late:untried": -0.18,
    mean_far: -0.244,
    near: 0.121,
    untried: 0.166,
  },
  "improve.edit": {
    "early:explore": -0.175,
    gained: 0.187,
    "late:tune": 0.141,
    parent_crowded: -0.158,
    parent_far: -0.399,
    stalled: 0.105,
  },
  "improve.swap_to": {
    best: 0.145,
    crowded: -0.412,
    far: -0.447,
    "late:best": 0.151,
    "late:untried": 0.192,
    mean_far: -0.369,
    near: -0.494,
    untried: 0.375,
  },
  "improve.which_model": {
    "swap_model:best": -0.344,
    "swap_model:worst": 0.456,
    "tune:best": 0.264,
    "tune:worst": -0.332,
  },
};
