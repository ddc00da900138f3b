// kit/jail: the isolation primitive below gym and sandbox. Programs (kit/sandbox) and a task package's own
// code (kit/gym: prepare.py, metric.py) both run through it, never on the host.
export {
  runJailed, jailUnavailable, JailLimits, type JailSpec, type JailMount, type JailResult,
} from "./run-jailed.js";
export { probeBwrap } from "./probe-bwrap.js";
export { isolationArgs, finishArgs, nvidiaDevices, SANDBOX_UID } from "./isolation-args.js";
export { supervise, bwrapSetupFailed, type Supervised } from "./supervise.js";
export { uidQuotaFilter, openUidQuotaFilter, seccompArgs, closeFilter } from "./uid-quota-filter.js";
export { TailBuffer } from "./tail-buffer.js";
export { JobCgroup } from "./cgroup.js";
export { limitedCommand } from "./limited-command.js";
export { sandboxHostUser, dropPrivilegesPrefix, lookupUser, SANDBOX_USER_NAME, type HostUser } from "./sandbox-user.js";
export { reachableBy, stagingBase, stagingPoint, stagePrefix, stageBinds } from "./stage-mounts.js";
export { giveTree, reclaimTree } from "./owner.js";
export { interpreterPrefix, sandboxPython } from "./interpreter.js";
export { diskUsage, watchDiskQuota, quotaMessage, type DiskUsage, type DiskQuota } from "./disk-quota.js";
export { JailError, JailUnavailableError } from "./errors.js";
export { blasCoreType, hostBlasCoreType, blasPinEnv, parseCpuFlags, hostCpuFlags } from "./blas-kernels.js";
