// A benchmark's task list: ids, package folders and `suite:NAME` items (core | train | dev | all; heldout = dev; confirm is sealed), expanded
// through the corpus index; a corpus never built is built first (openmle task build-corpus).
import { ensureCorpus, expandTaskList } from "../kit/gym/index.js";

export function benchTasks(list: string): Promise<string[]> {
  return expandTaskList(list, {
    loadIndex: () =>
      ensureCorpus({ onEvent: (e) => e.type === "candidate" && process.stderr.write(`corpus ${e.done}/${e.total}\r`) }),
  });
}
