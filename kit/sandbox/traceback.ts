/** What a Python failure looks like once read from stderr. */
export interface PythonFailure {
  /** Exception class, e.g. "ModuleNotFoundError" (null when none was printed). */
  readonly exception: string | null;
  readonly message: string | null;
  /** The traceback (or SyntaxError report), bounded to `maxChars`. */
  readonly excerpt: string | null;
}

const EXC_LINE = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure))(?::\s?(.*))?$/;

/**
 * Pull the last traceback out of stderr: from the last `Traceback (most recent call last):`
 * (or the last `File "...", line N` block of a SyntaxError) to the exception line. Long
 * tracebacks keep their first 8 and last 30 lines.
 */
export function extractPythonFailure(stderr: string, maxChars = 4000): PythonFailure {
  const lines = stderr.replace(/\r/g, "").split("\n");
  let excIdx = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (EXC_LINE.test(lines[i]!.trim()) && !lines[i]!.startsWith(" ")) {
      excIdx = i;
      break;
    }
  }
  if (excIdx < 0) return { exception: null, message: null, excerpt: null };
  const m = lines[excIdx]!.trim().match(EXC_LINE)!;
  const exception = m[1]!.split(".").pop()!;
  let start = excIdx;
  for (let i = excIdx; i >= 0; i--) {
    if (lines[i]!.startsWith("Traceback (most recent call last)")) {
      start = i;
      break;
    }
    if (/^\s*File ".*", line \d+/.test(lines[i]!)) start = i;
    else if (i < excIdx && start !== excIdx && !lines[i]!.startsWith(" ")) break;
  }
  let block = lines.slice(start, excIdx + 1);
  if (block.length > 38) block = [...block.slice(0, 8), `  [... ${block.length - 38} lines ...]`, ...block.slice(-30)];
  let excerpt = block.join("\n");
  if (excerpt.length > maxChars) excerpt = `${excerpt.slice(0, 1000)}\n[...]\n${excerpt.slice(-(maxChars - 1010))}`;
  return { exception, message: m[2] ?? null, excerpt };
}

/** Groups failures: the same root cause gets the same signature whatever the message. */
export function runtimeSignature(exception: string | null, stderr: string): string {
  if (/CUDA out of memory|OutOfMemoryError/.test(stderr)) return "gpu_memory_error";
  // RLIMIT_FSIZE (set to the disk quota) or a full disk: the job wrote too much.
  if (/\[Errno (?:27|28)\] (?:File too large|No space left on device)/.test(stderr)) return "disk_quota";
  switch (exception) {
    case null:
      return "nonzero_exit";
    case "ModuleNotFoundError":
    case "ImportError":
      return "import_error";
    case "SyntaxError":
    case "IndentationError":
    case "TabError":
      return "syntax_error";
    case "MemoryError":
      return "memory_error";
    case "FileNotFoundError":
      return "file_not_found";
    default:
      return snakeCase(exception);
  }
}

function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
