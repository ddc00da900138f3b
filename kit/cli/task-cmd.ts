import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Command } from "commander";
import {
  buildBuiltinTask,
  buildTask,
  checkTask,
  importMlebench,
  recordTaskReview,
  resolveTask,
  scoreSubmission,
  semanticGate,
  type QualityReport,
  type SemanticReview,
  type TaskPackage,
  type TaskSpecInput,
  type BuildEvent,
} from "../gym/index.js";
import { createOpenAIModel } from "../llm/index.js";
import { openWorkspace } from "../store/index.js";
import { printableLine } from "../util/index.js";
import { registerCorpusBuild } from "./corpus-build-cmd.js";
import { registerTaskFunnel, registerTaskList } from "./corpus-cmd.js";
import { fileFlag, readFileFlag } from "./path-flag.js";
import { formatScore } from "./format.js";
import { output, printErr, UsageError } from "./run-cli.js";
import { addTableFlags, buildFromTable, type TableFlags } from "./task-build-table.js";

const summary = (t: TaskPackage) => ({ id: t.meta.id, dir: t.dir, meta: t.meta });

function readSpec(file: string): TaskSpecInput {
  const path = resolve(file);
  const text = readFileFlag("spec file", path, "Pass a JSON task spec (see kit/gym/README.md).");
  let spec: TaskSpecInput;
  try {
    spec = JSON.parse(text) as TaskSpecInput;
  } catch (e) {
    throw new UsageError(`spec file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  // Paths in a spec are relative to the spec file.
  const rel = (p: string | undefined) => (p && !isAbsolute(p) ? join(dirname(path), p) : p);
  return { ...spec, table: rel(spec.table)!, ...(spec.filesDir ? { filesDir: rel(spec.filesDir) } : {}) };
}

/** Flags of `task build` that only frame a table (--table). */
const TABLE_ONLY = [
  "target",
  "id",
  "description",
  "metric",
  "modality",
  "split",
  "timeColumn",
  "groupColumn",
  "testSize",
  "drop",
  "keep",
  "idColumn",
  "maxRows",
  "dryRun",
  "saveSpec",
] as const;
const flagName = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** A package's own text (its id, its metric's messages, a model's reasons) shown on one line. */
const line = printableLine;

function checkLine(report: QualityReport, semantic?: SemanticReview): string {
  const lines = [
    `task ${line(report.taskId)} (${line(report.dir)}): ${report.passed ? "PASSED" : "FAILED"}, metric ` +
      `${report.metricValid ? "valid" : "INVALID"} (${report.durationMs} ms)`,
  ];
  for (const c of report.checks) lines.push(`  ${c.status.padEnd(4)}  ${c.name.padEnd(26)} ${line(c.message)}`);
  if (semantic) {
    const mean = typeof semantic.meanScore === "number" ? ` (mean axis score ${semantic.meanScore.toFixed(2)}/5)` : "";
    const reasons = semantic.reasons.length ? `: ${semantic.reasons.map(line).join("; ")}` : "";
    lines.push(`  gate  ${semantic.verdict}${mean}${reasons}; accepted: ${semantic.accepted}`);
  }
  return lines.join("\n");
}

export function registerTask(program: Command): void {
  const task = program
    .command("task")
    .description("Build, check, list, describe and import task packages; the corpus funnel (OpenMLE-Gym)");

  addTableFlags(
    task
      .command("build [spec]")
      .description(
        "Build a package from a JSON task spec, a built-in task (--builtin <id>) or your own table framed by the " +
          "corpus' rules (--table FILE --target COL: each choice printed with its reason and its override flag)",
      )
      .option("--builtin <id>", "a built-in task id (openmle task list)")
      .option("--out <dir>", "the package folder to create")
      .option("--force", "replace an existing package at --out")
      .option("--json", "machine-readable output: {id, dir, meta} (with --table also {spec, choices})"),
  ).action(
    async (
      spec: string | undefined,
      o: TableFlags & { builtin?: string; out?: string; force?: boolean; json?: boolean },
    ) => {
      if ([spec, o.builtin, o.table].filter(Boolean).length !== 1)
        throw new UsageError("pass one of a spec file, --builtin <id> or --table <file> --target <column>.");
      if (o.table) return buildFromTable(o);
      const tableOnly = TABLE_ONLY.filter((k) => o[k] !== undefined);
      if (tableOnly.length)
        throw new UsageError(
          `${tableOnly.map(flagName).join(", ")} ${tableOnly.length === 1 ? "frames" : "frame"} a table: use ` +
            `${tableOnly.length === 1 ? "it" : "them"} with --table <file>.`,
        );
      if (!o.out) throw new UsageError("pass --out <dir>, the package folder to create.");
      const opts = {
        outDir: o.out,
        overwrite: !!o.force,
        onEvent: (e: BuildEvent) => {
          if (e.type === "id-generated" && e.shadowed)
            printErr(
              `note: ids are generated into \`${e.idColumn}\`; the table's own \`${e.shadowed}\` column stays a ` +
                `feature (set "idColumn": "${e.shadowed}" in the spec to use it as the id).`,
            );
        },
      };
      const t = o.builtin ? await buildBuiltinTask(o.builtin, opts) : await buildTask(readSpec(spec!), opts);
      output(
        !!o.json,
        summary(t),
        () =>
          `built ${line(t.meta.id)} into ${t.dir}: ${t.meta.nTrain} train / ${t.meta.nTest} test rows, metric ` +
          `${line(t.meta.metric)}`,
      );
    },
  );

  task
    .command("check <dirOrId>")
    .description(
      "Run the metric verification and the deterministic quality checks; optionally the LLM gate; store verdicts",
    )
    .option("--workspace <dir>", "store the task and its reviews in this workspace (tasks, task_reviews)")
    .option("--gate", "also run the semantic quality gate through an OpenAI-compatible endpoint")
    .option("--base-url <url>", "chat-completions base URL for --gate", "http://127.0.0.1:8000/v1")
    .option("--model <id>", "model id for --gate", "Qwen/Qwen3-8B")
    .option("--no-determinism", "skip re-running prepare.py")
    .option("--json", "machine-readable output: {task, dir, passed, metricValid, checks, semantic, accepted}")
    .action(
      async (
        dirOrId: string,
        o: { workspace?: string; gate?: boolean; baseUrl: string; model: string; determinism: boolean; json?: boolean },
      ) => {
        const t = await resolveTask(dirOrId);
        const report = await checkTask(t, { determinism: o.determinism });
        const model = o.gate ? createOpenAIModel({ baseURL: o.baseUrl, model: o.model }) : undefined;
        const semantic = await semanticGate(t, { model, metricValid: report.metricValid });
        if (o.workspace) {
          const ws = await openWorkspace(o.workspace);
          try {
            await recordTaskReview(ws, t, { quality: report, semantic });
          } finally {
            ws.close();
          }
        }
        const accepted = report.passed && semantic.accepted;
        output(
          !!o.json,
          {
            task: t.meta.id,
            dir: t.dir,
            passed: report.passed,
            metricValid: report.metricValid,
            checks: report.checks,
            semantic,
            accepted,
          },
          () => checkLine(report, semantic),
        );
        if (!report.passed) process.exitCode = 1;
      },
    );

  registerTaskList(task);
  registerCorpusBuild(task);
  registerTaskFunnel(task);

  task
    .command("describe <dirOrId>")
    .description("Show a package's metadata and description (a built-in id is built into the cache first)")
    .option("--json", "machine-readable output: {id, dir, meta, description}")
    .action(async (dirOrId: string, o: { json?: boolean }) => {
      const t = await resolveTask(dirOrId);
      output(!!o.json, { ...summary(t), description: t.description }, () =>
        [
          `${line(t.meta.id)} (${line(t.dir)})`,
          `  ${line(t.meta.modality)} ${line(t.meta.taskType)}; metric ` +
            `${line(t.meta.metric)} (${t.meta.higherIsBetter ? "higher" : "lower"} is better)`,
          `  id ${line(t.meta.idColumn)}; predict ${t.meta.targetColumns.map(line).join(", ")}; ` +
            `${line(String(t.meta.nTrain ?? "?"))} train / ${line(String(t.meta.nTest ?? "?"))} test rows`,
          "",
          t.description,
        ].join("\n"),
      );
    });

  task
    .command("score <dirOrId> <submission>")
    .description("Score a submission CSV with the package's own metric")
    .option("--json", "machine-readable output: {ok, score} or {ok, kind, message}")
    .action(async (dirOrId: string, submission: string, o: { json?: boolean }) => {
      const t = await resolveTask(dirOrId);
      const csv = fileFlag("submission", resolve(submission), "Pass the path of a submission CSV.");
      const r = await scoreSubmission(t, csv);
      output(!!o.json, r, () => (r.ok ? `${line(t.meta.metric)}: ${formatScore(r.score)}` : `${r.kind}: ${r.message}`));
      if (!r.ok) process.exitCode = 1;
    });

  task
    .command("import-mlebench <competitionDir>")
    .description("Convert an MLE-bench competition folder plus your raw data into a package with its leaderboard")
    .requiredOption("--raw <dir>", "the competition's raw data (as downloaded from Kaggle)")
    .requiredOption("--out <dir>", "the package folder to create")
    .option("--force", "replace an existing package at --out")
    .option("--json", "machine-readable output: {id, dir, meta}")
    .action(async (comp: string, o: { raw: string; out: string; force?: boolean; json?: boolean }) => {
      const t = await importMlebench(comp, { raw: o.raw, outDir: o.out, overwrite: !!o.force });
      output(
        !!o.json,
        summary(t),
        () =>
          `imported ${line(t.meta.id)} into ${t.dir} (leaderboard: ` +
          `${existsSync(join(t.dir, "leaderboard.csv")) ? "yes" : "no"})`,
      );
    });
}
