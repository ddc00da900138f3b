// Which names the dashboard answers to, and what `--host` problems look like (issue 59.7). A page of any site
// can point its own name at 127.0.0.1 (DNS rebinding) and then read the dashboard as same-origin; its requests
// still carry that site's name in Host, so answering only to loopback names and the configured host stops it.
import { isIP } from "node:net";
import { ReportError } from "./errors.js";

/** The port is taken: say which and how to pick another. */
export class PortInUseError extends ReportError {
  constructor(host: string, port: number) {
    super(`port ${port} on ${host} is in use: pass --port with a free one (--port 0 picks any free port).`);
  }
}

/** `--host` cannot serve: a name that does not resolve, or an address of another machine. */
export class HostUnavailableError extends ReportError {
  constructor(
    readonly host: string,
    why: string,
  ) {
    super(
      `--host ${host} ${why}: pass an address of this machine (127.0.0.1, the default; ::1; 0.0.0.0 for every ` +
        `interface) or a name that resolves to one.`,
    );
  }
}

/** One IPv4 address of 127.0.0.0/8 (every one of them is loopback). */
const LOOPBACK_V4 = /^127\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)$/;

/** A host as a Host header spells it: lower case, no trailing dot, an IPv6 address in brackets. */
function canonical(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, "");
  return isIP(h) === 6 ? `[${h}]` : h;
}

/** The host part of a Host header value (`name`, `name:port`, `[v6]`, `[v6]:port`), or null when malformed. */
function hostPart(header: string): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(:\d{1,5})?$/i.exec(header.trim());
  return m ? m[1]! : null;
}

/**
 * Whether a request's Host header names this dashboard: localhost, any 127.x address, [::1], or the host it
 * was started with (`--host`), each with or without a port (any port: an ssh tunnel or a proxy may forward
 * another one). A missing or malformed header is refused.
 */
export function hostAllowed(header: string | undefined, configured: string): boolean {
  const part = header === undefined ? null : hostPart(header);
  if (part === null) return false;
  const h = canonical(part);
  return h === "localhost" || h === "[::1]" || LOOPBACK_V4.test(h) || h === canonical(configured);
}

/** The one-line body of a refused request. */
export const WRONG_HOST_BODY =
  "openmle serve answers only to localhost, 127.x, [::1] and its --host (a page of another site may not read it)\n";

/**
 * `--host` names under `.invalid` never resolve (RFC 6761 §6.4: resolvers should answer no at once), so they are
 * refused here without asking the system resolver.
 */
export function reservedUnresolvable(host: string): boolean {
  return /(^|\.)invalid\.?$/i.test(host);
}

/** A listen error as one line: a port in use, a name that does not resolve, an address not of this machine. */
export function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === "EADDRINUSE") return new PortInUseError(host, port);
  if (e.code === "ENOTFOUND" || e.code === "EAI_NONAME" || e.code === "EAI_FAIL" || e.code === "EAI_NODATA")
    return new HostUnavailableError(host, "cannot be resolved to an address");
  if (e.code === "EAI_AGAIN")
    return new HostUnavailableError(host, "cannot be resolved to an address (the name server did not answer)");
  if (e.code === "EADDRNOTAVAIL") return new HostUnavailableError(host, "is not an address of this machine");
  if (e.code === "EACCES")
    return new ReportError(`port ${port} on ${host} needs privileges: pass --port 1024 or above (0: any free port).`);
  return e;
}
