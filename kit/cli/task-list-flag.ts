// Flags that take a comma-separated task list (`--tasks`, `--train-tasks`, `--heldout-tasks`): ids, package
// folders, and `suite:NAME` items expanded through the corpus index (kit/gym/corpus/corpus-index.ts).
import { expandTaskList, readCorpusIndex } from "../gym/corpus/corpus-index.js";

/** What a task-list flag's help says it takes. */
export const TASK_LIST_HELP =
  "comma-separated built-in task ids, task package folders, or suite:NAME (core | train | heldout | all: " +
  "openmle task list --suite NAME)";

/** The ids and folders of a task-list flag, `suite:NAME` expanded, duplicates removed. */
export function taskListFlag(value: string): Promise<string[]> {
  return expandTaskList(value, { loadIndex: () => readCorpusIndex() });
}
