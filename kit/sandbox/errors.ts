import { KitError } from "../util/index.js";

/** Base class of sandbox errors: each message names the bad value and what to do. */
export class SandboxError extends KitError {}

/** bubblewrap is missing or cannot create namespaces, and unsafe mode was not chosen. */
export class SandboxUnavailableError extends SandboxError {}

/** Limits or options that make no sense (negative timeout, unknown backend). */
export class SandboxConfigError extends SandboxError {}

/** The job was cancelled through its AbortSignal before it produced a record. */
export class SandboxCancelledError extends SandboxError {}

/** The Docker engine or image is not usable. */
export class DockerUnavailableError extends SandboxError {}

/** The queue has no usable shared key (OPENMLE_QUEUE_KEY, or a key file): it refuses to run without one. */
export class QueueKeyError extends SandboxConfigError {}

/**
 * A record that came back through Redis without a valid tag for this job (forged by whoever can write
 * to Redis, replayed from another job, or signed with another key): refused, never stored or shown.
 */
export class QueueAuthError extends SandboxError {
  constructor(
    message: string,
    readonly jobId: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A sealed record that is no ExecutionRecord of the job (a field of the wrong type, an unknown status, a date that is
 * no ISO date, another program's code hash): a key-holding worker of another version, or a rogue one. Refused, never
 * stored or shown.
 */
export class QueueRecordError extends SandboxError {
  constructor(
    message: string,
    readonly jobId: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A queue wait that cannot end: the queue is paused, no worker listens on it, or the job ran past its deadline (its
 * timeout plus the client's queueWaitS). The job is left in the queue; the message says what to do.
 */
export class QueueWaitError extends SandboxError {
  constructor(
    message: string,
    readonly jobId: string,
    readonly reason: "paused" | "no-worker" | "deadline",
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Why a worker refused a job (the first word of its failure through Redis). */
export type QueueRefusal = "unauthenticated" | "invalid-job" | "over-cap" | "unknown-task" | "other-package";

/**
 * A worker refused a job before running it: no valid tag, a malformed job, limits over the worker's
 * caps (`limit` names which), or a task it does not serve. Thrown in the worker and, rebuilt from the
 * job's failure, by the client that submitted it.
 */
export class QueueJobRefusedError extends SandboxError {
  constructor(
    message: string,
    readonly reason: QueueRefusal,
    readonly limit?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
