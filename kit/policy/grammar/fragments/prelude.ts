import type { TaskPackage } from "../../../gym/types.js";
import type { SolutionSpec } from "../spec.js";
import { fragment, pyList, pyStr, type Fragment, type PyImport } from "./fragment.js";
import type { RenderedMetric } from "./metric.js";

/** The module docstring: the task in one line, then the plan (its triple quotes and backslashes defused). */
export function docstring(task: TaskPackage, spec: SolutionSpec, plan = ""): Fragment {
  const m = task.meta;
  const text = plan.replaceAll('"""', "'''").replaceAll("\\", "/");
  return fragment(
    "docstring",
    {},
    `"""
Task: ${m.name} (${m.modality}, ${spec.taskType}; metric ${m.metric}, ${m.higherIsBetter ? "higher" : "lower"} is better).
${text}
"""
`,
  );
}

/** The imports every program needs, then `extra` (the models' and the stacker's), and the start time. */
export function imports(extra: readonly PyImport[]): Fragment {
  return fragment(
    "imports",
    { defines: ["os", "time", "warnings", "np", "pd", ...extra.map((i) => i.binds), "T0"] },
    `import os
# Idle OpenMP threads sleep instead of spinning (spinning threads stall badly on a shared CPU).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import time
import warnings

import numpy as np
import pandas as pd
${extra.map((i) => i.line).join("\n")}

warnings.filterwarnings("ignore")
T0 = time.time()
`,
  );
}

const SETTINGS = [
  "DATA_DIR",
  "SEED",
  "N_JOBS",
  "ID_COL",
  "TRAIN_TARGET",
  "TARGET_COLUMNS",
  "CLASSES",
  "TASK_TYPE",
  "METRIC",
  "PROBA_OUTPUT",
  "MAX_TRAIN_ROWS",
  "VALIDATION",
  "FOLDS",
  "HOLDOUT_FRAC",
  "ENSEMBLE",
  "WRITER",
  "OFFSETS",
  "rng",
];

/**
 * The program's constants: the task's columns and the spec's choices. `probaSingle`: the single target
 * column holds the positive-class probability (AUC, log loss).
 */
export function settings(
  spec: SolutionSpec,
  task: TaskPackage,
  metric: RenderedMetric,
  probaSingle: boolean,
): Fragment {
  const m = task.meta;
  const classes = m.classes && m.classes.length === m.targetColumns.length ? pyList(m.classes.map(String)) : "None";
  const several = spec.models.length > 1;
  return fragment(
    "settings",
    { defines: SETTINGS, uses: ["os", "np"] },
    `DATA_DIR = os.environ["DATA_DIR"]
SEED = ${spec.seed}
N_JOBS = 2
ID_COL = ${pyStr(m.idColumn)}
TRAIN_TARGET = ${pyStr(m.trainTarget)}
TARGET_COLUMNS = ${pyList(m.targetColumns)}
CLASSES = ${classes}
TASK_TYPE = ${pyStr(spec.taskType)}
METRIC = ${pyStr(metric.name)}  # ${metric.exact ? "the task's metric" : `stand-in for "${m.metric}" (same direction)`}
PROBA_OUTPUT = ${probaSingle ? "True" : "False"}  # single target column holds the positive-class probability
MAX_TRAIN_ROWS = ${spec.maxTrainRows ?? "None"}
VALIDATION, FOLDS, HOLDOUT_FRAC = ${pyStr(spec.validation.scheme)}, ${spec.validation.folds}, ${spec.validation.holdoutFrac}
ENSEMBLE = ${pyStr(several ? spec.ensemble : "none")}${several ? `  # ensemble of ${spec.models.length} models` : ""}
WRITER = ${pyStr(spec.writer)}
OFFSETS = {}  # regression targets modelled as differences: per-row values added back to predictions
rng = np.random.RandomState(SEED)
`,
  );
}
