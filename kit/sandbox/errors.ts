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
