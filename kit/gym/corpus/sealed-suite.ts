// The sealed suite (issue 60): suite:confirm's tasks run and are read only through registered experiments
// (`openmle experiment ...`). Every task list goes through expandTaskList (corpus-index.ts), which refuses
// suite:confirm and confirm tasks here unless `allowConfirm`; resolveTask refuses a confirm task the same way; code
// that reads stored rows calls assertNotConfirm (or labels rows with confirmTaskIds).
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { GymError } from "../errors.js";
import { corpusPaths } from "./paths.js";

/** suite:confirm, or a task of it, asked for outside a registered experiment. */
export class SealedSuiteError extends GymError {}

/** What every refusal says after naming what was asked for. */
export const SEALED_RULE =
  "its tasks run and are read only through registered experiments " +
  "(openmle experiment register PLAN; openmle experiment list)";

/** The part of a corpus index the seal reads (CorpusIndex, or index.json's tasks). */
export interface SuitedIds {
  readonly tasks: readonly { readonly id: string; readonly suite: string }[];
}

/** The ids of the confirm suite's tasks. */
export function confirmTaskIds(index: SuitedIds): Set<string> {
  return new Set(index.tasks.filter((t) => t.suite === "confirm").map((t) => t.id));
}

/** The refusal of `suite:confirm` itself. */
export function sealedSuiteError(): SealedSuiteError {
  return new SealedSuiteError(`suite:confirm is sealed: ${SEALED_RULE}`, "suite:confirm");
}

/**
 * Throw SealedSuiteError when any of `taskIds` is a confirm task (of `index`, or in a set of confirm ids): one
 * line naming up to three of them. For code that reads stored rows by task (evaluate, report, bench).
 */
export function assertNotConfirm(taskIds: Iterable<string>, index: SuitedIds | ReadonlySet<string>): void {
  const confirm = "tasks" in index ? confirmTaskIds(index) : index;
  const hit = [...new Set(taskIds)].filter((id) => confirm.has(id)).sort();
  if (!hit.length) return;
  const named = hit.length > 3 ? `${hit.slice(0, 3).join(", ")} and ${hit.length - 3} more` : hit.join(", ");
  throw new SealedSuiteError(
    `${hit.length > 1 ? "tasks" : "task"} ${named} ${hit.length > 1 ? "are" : "is"} in suite:confirm, which is ` +
      `sealed: ${SEALED_RULE}`,
    hit[0]!,
  );
}

/**
 * The confirm ids of the corpus index at `dir` (default corpusPaths()) as the file holds them, without building
 * or validating it: empty when there is no index or it cannot be read (an index from before issue 60 has none).
 * For lists of plain ids and folders, which must not build the corpus just to check the seal.
 */
export function peekConfirmIds(dir?: string): Set<string> {
  const path = corpusPaths(dir).index;
  if (!existsSync(path)) return new Set();
  try {
    const f = JSON.parse(readFileSync(path, "utf8")) as { tasks?: unknown };
    return Array.isArray(f.tasks) ? confirmTaskIds({ tasks: f.tasks as SuitedIds["tasks"] }) : new Set();
  } catch {
    return new Set();
  }
}

/**
 * The task ids a task-list item may stand for: the item itself; for a path (it has a "/" or starts with ".") or a
 * folder, its last name; for a folder, the `id` of its task.json (a copied package keeps its id).
 */
export function itemTaskIds(item: string): string[] {
  const dir = resolve(item);
  const isDir = existsSync(dir) && statSync(dir).isDirectory();
  if (!isDir && !item.includes("/") && !item.startsWith(".")) return [item];
  let id: unknown;
  try {
    id = isDir ? (JSON.parse(readFileSync(join(dir, "task.json"), "utf8")) as { id?: unknown }).id : undefined;
  } catch {
    id = undefined;
  }
  return [...new Set([item, basename(dir), ...(typeof id === "string" ? [id] : [])])];
}

/** Refuse a task-list item that stands for a confirm task (itemTaskIds), naming the item as given. */
export function assertItemNotConfirm(item: string, confirm: ReadonlySet<string>): void {
  const id = itemTaskIds(item).find((x) => confirm.has(x));
  if (id === undefined) return;
  const what = id === item ? `task ${id}` : `${item} (task ${id})`;
  throw new SealedSuiteError(`${what} is in suite:confirm, which is sealed: ${SEALED_RULE}`, item);
}
