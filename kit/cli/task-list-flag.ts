// Flags that take a comma-separated task list (`--tasks`, `--train-tasks`, `--heldout-tasks`): ids, package
// folders, and `suite:NAME` items expanded through the corpus index, which is built first when it is missing. The
// sealed suite:confirm and its tasks are refused here (kit/gym/corpus/sealed-suite.ts): registered experiments only.
import { ensureCorpus, expandTaskList } from "../gym/index.js";
import { corpusProgress } from "./corpus-build-cmd.js";

/** What a task-list flag's help says it takes. */
export const TASK_LIST_HELP =
  "comma-separated task ids (built-in or corpus), task package folders, or suite:NAME (core | train | dev | all; " +
  "heldout is the old name of dev; confirm is sealed: openmle experiment; openmle task list --suite NAME; a " +
  "missing corpus is built first, as openmle task build-corpus does)";

/** The ids and folders of a task-list flag, `suite:NAME` expanded, duplicates removed; confirm refused. */
export function taskListFlag(value: string): Promise<string[]> {
  return expandTaskList(value, {
    loadIndex: () => ensureCorpus({ onEvent: corpusProgress(process.stderr.isTTY ? "bar" : "lines") }),
  });
}
