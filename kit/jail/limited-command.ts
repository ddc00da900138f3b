import type { JobCgroup } from "./cgroup.js";

/**
 * The command line that starts `command` with a job's limits in place before it runs. With a cgroup,
 * one `/bin/sh` (dash) joins it, sets RLIMIT_FSIZE with its `ulimit -f` builtin (512-byte blocks, soft
 * and hard) and execs the command: one process step before bubblewrap, where `prlimit` was a second.
 * Without a cgroup, `prlimit` sets RLIMIT_FSIZE and RLIMIT_AS (the memory cap's stand-in).
 */
export function limitedCommand(
  cg: JobCgroup | null,
  limits: { readonly fsizeBytes: number; readonly asBytes: number },
  command: readonly string[],
): [string, string[]] {
  if (!cg) return ["prlimit", [`--fsize=${limits.fsizeBytes}`, `--as=${limits.asBytes}`, "--", ...command]];
  return [
    "/bin/sh",
    ["-c", `${cg.enterScript()} && ulimit -f ${Math.floor(limits.fsizeBytes / 512)} && exec "$@"`, "sh", ...command],
  ];
}
