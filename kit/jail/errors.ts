import { KitError } from "../util/index.js";

/** Base class of jail errors. */
export class JailError extends KitError {}

/**
 * bubblewrap (or user namespaces, or the unprivileged sandbox account) is not usable here, so code that
 * must run jailed cannot run, and running it on the host was not allowed.
 */
export class JailUnavailableError extends JailError {}
