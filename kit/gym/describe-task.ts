import { getMetric, type MetricName } from "./metrics/registry.js";
import type { TaskSpec } from "./task-spec.js";
import type { TaskMeta } from "./types.js";

/** description.txt of a built task: the spec's text, then the task, metric, files and a data profile. */
export function renderDescription(spec: TaskSpec, meta: TaskMeta): string {
  const def = getMetric(spec.metric);
  const cols = (meta.columns ?? []).map(
    (c) => `| ${c.name} | ${c.kind} | ${(100 * c.missingShare).toFixed(1)}% | ${c.unique} |`,
  );
  const out = def.output as string;
  const submission =
    out === "proba_multi"
      ? `one probability column per class (${meta.targetColumns.join(", ")}); rows are renormalised`
      : out === "proba_binary"
        ? `\`${meta.targetColumns[0]}\`: the probability that the row is the positive class (1)`
        : out === "ranking"
          ? `\`${meta.targetColumns[0]}\`: up to ${spec.k} labels separated by spaces, best first`
          : `\`${meta.targetColumns[0]}\`: the predicted ${meta.taskType === "regression" ? "value" : "label"}`;
  return [
    `# ${meta.name}`,
    "",
    spec.description.trim() || `Predict \`${meta.trainTarget}\` from the other columns.`,
    "",
    "## Task",
    `${meta.taskType} on ${meta.modality.replace("_", " ")} data: predict \`${meta.trainTarget}\` for every ` +
      `row of test.csv.`,
    "",
    "## Metric",
    `${def.title} (\`${spec.metric as MetricName}\`); ${meta.higherIsBetter ? "higher" : "lower"} is better.`,
    "",
    "## Files",
    `- train.csv: ${meta.nTrain} rows with the target \`${meta.trainTarget}\``,
    `- test.csv: ${meta.nTest} rows without the target`,
    ...(spec.fileColumn
      ? [
          `- train/ and test/: the ${meta.modality} files named in ` +
            `column \`${spec.fileColumn}\` (paths relative to this folder)`,
        ]
      : []),
    `- sample_submission.csv: the submission format`,
    "",
    "## Submission",
    `A CSV with columns \`${meta.idColumn}\`, ${meta.targetColumns.map((c) => `\`${c}\``).join(", ")}: one row ` +
      `per test id; ${submission}.`,
    "",
    "## Columns of train.csv",
    "| column | kind | missing | unique |",
    "|---|---|---|---|",
    ...cols,
    "",
    ...(meta.source ? [`Source: ${meta.source}${meta.licence ? ` (licence: ${meta.licence})` : ""}`, ""] : []),
  ].join("\n");
}
