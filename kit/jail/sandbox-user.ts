import { readFileSync } from "node:fs";
import { JailUnavailableError } from "./errors.js";

/** The unprivileged host account that sandboxed programs run as when the kit itself runs as root. */
export const SANDBOX_USER_NAME = "openmle-sandbox";

export interface HostUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** A user from /etc/passwd, or null. */
export function lookupUser(name: string, passwd = "/etc/passwd"): HostUser | null {
  let text: string;
  try {
    text = readFileSync(passwd, "utf8");
  } catch {
    return null;
  }
  for (const line of text.split("\n")) {
    const f = line.split(":");
    if (f[0] === name && f.length >= 4) return { name, uid: Number(f[2]), gid: Number(f[3]) };
  }
  return null;
}

/**
 * Who sandboxed programs run as on the host. As root, the kit drops to the dedicated account
 * (OPENMLE_SANDBOX_USER overrides its name; scripts/setup.sh creates it): bubblewrap then maps the
 * program's uid 1000 to that unprivileged host uid, so every file check is that account's. As any
 * other user, bubblewrap already maps the program to that (unprivileged) user: null, no switch.
 * Throws a message saying what to do when the kit runs as root and the account does not exist.
 */
export function sandboxHostUser(): HostUser | null {
  if (process.getuid?.() !== 0) return null;
  const name = process.env.OPENMLE_SANDBOX_USER ?? SANDBOX_USER_NAME;
  const user = lookupUser(name);
  if (!user) {
    throw new JailUnavailableError(
      `the kit runs as root, so sandboxed programs run as the unprivileged user "${name}", which does not exist. ` +
        `Run scripts/setup.sh (or: useradd --system --user-group --no-create-home --shell ` +
        `/usr/sbin/nologin ${name}), or set OPENMLE_SANDBOX_USER to another unprivileged account.`,
    );
  }
  if (user.uid === 0 || user.gid === 0)
    throw new JailUnavailableError(
      `the sandbox user "${name}" has uid ${user.uid} / gid ${user.gid}; it must be an unprivileged ` +
        `account (non-zero uid and gid).`,
    );
  return user;
}

/** `setpriv` prefix that drops to `user` with no supplementary groups, no capabilities and no_new_privs. */
export function dropPrivilegesPrefix(user: HostUser): string[] {
  return [
    "setpriv",
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--no-new-privs",
    "--",
  ];
}
