import { execFileSync } from "node:child_process";
import { packageRoot } from "../eval/index.js";

/**
 * The kit's git commit (40 hex digits), with "-dirty" when kit/ has uncommitted changes to tracked files (the
 * commit alone does not pin that code); "unknown" outside a git checkout.
 */
export function kitCommit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: packageRoot(), encoding: "utf8" }).trim();
  try {
    const head = git("rev-parse", "HEAD");
    return git("status", "--porcelain", "--untracked-files=no", "--", "kit") ? `${head}-dirty` : head;
  } catch {
    return "unknown";
  }
}
