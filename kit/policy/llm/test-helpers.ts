// Test fixtures: a tiny task package written to a temp folder, and operator contexts.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TaskMeta, TaskPackage } from "../../gym/types.js";
import type { NodeView, OperatorContext } from "../types.js";

export function tinyTask(): TaskPackage {
  const dir = mkdtempSync(join(tmpdir(), "openmle-policy-llm-"));
  const publicDir = join(dir, "data", "public");
  const privateDir = join(dir, "data", "private");
  mkdirSync(publicDir, { recursive: true });
  mkdirSync(privateDir, { recursive: true });
  const train = [
    "id,bill_len,island,species",
    ...Array.from(
      { length: 30 },
      (_, i) => `${i},${(35 + (i % 10)).toFixed(1)},${["Biscoe", "Dream"][i % 2]},${["Adelie", "Gentoo"][i % 2]}`,
    ),
  ];
  writeFileSync(join(publicDir, "train.csv"), `${train.join("\n")}\n`);
  writeFileSync(join(publicDir, "test.csv"), "id,bill_len,island\n100,40.1,Dream\n");
  writeFileSync(join(publicDir, "sample_submission.csv"), "id,species\n100,Adelie\n");
  const description = "Predict the penguin species from bill length and island.";
  writeFileSync(join(publicDir, "description.txt"), description);
  const meta: TaskMeta = {
    id: "tiny-penguins",
    name: "Tiny penguins",
    modality: "tabular",
    taskType: "classification",
    idColumn: "id",
    targetColumns: ["species"],
    trainTarget: "species",
    metric: "accuracy",
    higherIsBetter: true,
    classes: ["Adelie", "Gentoo"],
    files: { train: "train.csv", test: "test.csv", sampleSubmission: "sample_submission.csv" },
    columns: [
      { name: "id", kind: "id", missingShare: 0, unique: 30 },
      { name: "bill_len", kind: "numeric", missingShare: 0.1, unique: 10 },
      { name: "island", kind: "categorical", missingShare: 0, unique: 2 },
      { name: "species", kind: "target", missingShare: 0, unique: 2 },
    ],
    nTrain: 30,
    nTest: 1,
  };
  writeFileSync(join(dir, "task.json"), JSON.stringify(meta));
  return { dir, publicDir, privateDir, meta, description };
}

export function node(id: string, over: Partial<NodeView> = {}): NodeView {
  return {
    nodeId: id,
    operator: "draft",
    code: `# program of ${id}\nimport pandas as pd\nprint("Final Validation Score: 0.8")\n`,
    plan: `plan of ${id}`,
    status: "success",
    validScore: 0.8,
    errorSignature: null,
    ...over,
  };
}

export const budget = { remainingSteps: 12, remainingTimeS: 5400, perRunTimeLimitS: 600 };

export function contextFor(op: "draft" | "improve" | "debug" | "crossover"): OperatorContext {
  switch (op) {
    case "draft":
      return { parents: [], budget };
    case "improve":
      return {
        parents: [node("n3", { methodFamily: "xgboost" })],
        ancestors: [node("n1")],
        siblings: [node("n4", { validScore: 0.85 })],
        budget,
      };
    case "debug":
      return {
        parents: [
          node("n5", {
            status: "runtime_error",
            validScore: null,
            errorSignature: "import_error",
            traceback:
              'Traceback (most recent call last):\n  File "main.py", line 1\nModuleNotFoundError: ' +
              "No module named 'lightgbm'",
          }),
        ],
        failures: [
          node("n2", {
            status: "runtime_error",
            validScore: null,
            errorSignature: "import_error",
            traceback: "ModuleNotFoundError: No module named 'catboost'",
          }),
        ],
        budget,
      };
    case "crossover":
      return {
        parents: [node("n3", { validScore: 0.82 }), node("n6", { validScore: 0.79 })],
        memory: "Branch A contributes xgboost; Branch B contributes sklearn.",
        budget,
      };
  }
}
