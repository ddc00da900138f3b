import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildTask, type BuildOptions } from "../build-task.js";
import { UnknownTaskError } from "../errors.js";
import type { TaskSpecInput } from "../task-spec.js";
import type { Modality, TaskPackage, TaskType } from "../types.js";
import { getMetric } from "../metrics/registry.js";
import { materializeRaw } from "./materialize-raw.js";
import { BUILTIN_IDS, BUILTIN_TASKS, type BuiltinTask } from "./registry.js";

export interface BuiltinSummary {
  readonly id: string;
  readonly name: string;
  readonly modality: Modality;
  readonly taskType: TaskType;
  readonly metric: string;
  readonly source: string;
  readonly licence: string;
}

/** The built-in suite, one summary per task (id, name, modality, task type, metric, source, licence). */
export function listBuiltinTasks(): BuiltinSummary[] {
  return BUILTIN_IDS.map((id) => {
    const t: BuiltinTask = BUILTIN_TASKS[id];
    return {
      id,
      name: t.name,
      modality: t.modality,
      taskType: getMetric(t.spec.metric).taskType,
      metric: t.spec.metric,
      source: t.source,
      licence: t.licence,
    };
  });
}

export function getBuiltin(id: string): BuiltinTask {
  const t = (BUILTIN_TASKS as Record<string, BuiltinTask>)[id];
  if (!t)
    throw new UnknownTaskError(
      `unknown built-in task "${id}". Fix: use one of ${BUILTIN_IDS.join(", ")} (openmle task list), ` +
        `a corpus task id (openmle task list --suite all, after openmle task build-corpus), or pass a package folder.`,
      id,
    );
  return t;
}

/** Build built-in task `id` into `opts.outDir`: raw data from the installed packages, then buildTask. */
export async function buildBuiltinTask(id: string, opts: BuildOptions): Promise<TaskPackage> {
  const t = getBuiltin(id);
  mkdirSync(dirname(opts.outDir), { recursive: true });
  const rawTmp = mkdtempSync(join(dirname(opts.outDir), `.raw-${id}-`));
  try {
    const raw = await materializeRaw(t.raw, rawTmp);
    const spec: TaskSpecInput = {
      ...t.spec,
      id,
      name: t.name,
      modality: t.modality,
      table: raw.table,
      ...(raw.filesDir ? { filesDir: raw.filesDir } : {}),
      source: t.source,
      licence: t.licence,
    } as TaskSpecInput;
    return await buildTask(spec, opts);
  } finally {
    rmSync(rawTmp, { recursive: true, force: true });
  }
}
