import { request } from "node:http";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostAllowed, HostUnavailableError, serveDashboard, type DashboardServer } from "./index.js";

// Issue 59.7: the dashboard answered any Host header, so a page whose name was re-pointed at 127.0.0.1 (DNS
// rebinding) read run ids and scores as same-origin; a --host that did not resolve printed a stack trace.

// [Host header, --host, allowed]
const HOSTS: [string | undefined, string, boolean][] = [
  ["127.0.0.1:8765", "127.0.0.1", true],
  ["127.0.0.1", "127.0.0.1", true],
  ["localhost:8765", "127.0.0.1", true],
  ["LOCALHOST.", "127.0.0.1", true],
  ["127.8.9.10:1", "127.0.0.1", true],
  ["[::1]:8765", "127.0.0.1", true],
  ["[::1]", "::1", true],
  ["dash.lan:8765", "dash.lan", true],
  ["DASH.LAN", "dash.lan", true],
  ["10.0.0.5:8765", "10.0.0.5", true],
  ["evil.example:8765", "127.0.0.1", false],
  ["evil.example", "0.0.0.0", false],
  ["127.0.0.1.evil.example", "127.0.0.1", false],
  ["localhost.evil.example:8765", "127.0.0.1", false],
  ["127.0.0.256", "127.0.0.1", false],
  ["128.0.0.1", "127.0.0.1", false],
  ["0.0.0.0:8765", "127.0.0.1", false],
  ["[::2]:8765", "127.0.0.1", false],
  ["::1", "127.0.0.1", false],
  ["localhost:80:80", "127.0.0.1", false],
  ["localhost:port", "127.0.0.1", false],
  ["", "127.0.0.1", false],
  [undefined, "127.0.0.1", false],
];

describe("hostAllowed: loopback names and the configured host, with or without a port", () => {
  it.each(HOSTS)("Host %j with --host %s: %s", (header, configured, allowed) => {
    expect(hostAllowed(header, configured)).toBe(allowed);
  });
});

/** GET `path` from 127.0.0.1:`port` with the given Host header (the socket always goes to 127.0.0.1). */
function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      let body = "";
      res.on("data", (b) => (body += String(b)));
      res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", fail).end();
  });
}

/** A run id with a right-to-left override: "run-\u202Egpj.exe" shows as "run-exe.jpg". */
const RUN = "run-\u202Egpj.exe";

describe("openmle serve on 127.0.0.1", () => {
  let dash: DashboardServer;
  let port: number;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-dash-host-"));
    writeFileSync(join(dir, "openmle.duckdb"), ""); // isWorkspaceDir; the dashboard reads only the journal
    mkdirSync(join(dir, "journal"));
    const at = new Date().toISOString();
    const start = { type: "run-start", runId: RUN, taskId: "tiny", harness: "evo", higherIsBetter: true, steps: 3, at };
    writeFileSync(join(dir, "journal", "run.jsonl"), `${JSON.stringify({ ...start, resumed: false })}\n`);
    dash = await serveDashboard({ workspace: dir, port: 0 });
    port = Number(new URL(dash.url).port);
  });
  afterAll(() => dash.close());

  it("a forged Host (a rebinding page's name) gets 403 and no data; loopback names get the state", async () => {
    for (const path of ["/api/state", "/"]) {
      const forged = await get(port, path, `evil.example:${port}`);
      expect(forged.status).toBe(403);
      expect(forged.body).not.toMatch(/run-|tiny|score/);
      expect(forged.body.trim().split("\n")).toHaveLength(1);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "localhost"]) {
      const state = await get(port, "/api/state", host);
      expect(state.status, host).toBe(200);
      expect(JSON.parse(state.body).runs[0].taskId).toBe("tiny");
    }
  });

  it("names in the state carry bidi controls as visible escapes (the page shows them with textContent)", async () => {
    const { body } = await get(port, "/api/state", `127.0.0.1:${port}`);
    expect(body).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(body).runs[0].runId).toBe("run-\\u202egpj.exe");
  });
});

describe("a --host that cannot serve is one line saying what to pass", () => {
  const dir = mkdtempSync(join(tmpdir(), "openmle-dash-host-"));
  writeFileSync(join(dir, "openmle.duckdb"), "");
  it.each([
    // .invalid never resolves (RFC 6761): refused without asking the resolver, so no lookup leaves this machine.
    ["no-such-host.invalid", /^--host no-such-host\.invalid cannot be resolved to an address: pass an address/],
    // TEST-NET-1 (RFC 5737) is no address of this machine: bind fails locally with EADDRNOTAVAIL.
    ["192.0.2.1", /^--host 192\.0\.2\.1 is not an address of this machine: pass an address/],
  ])("%s", async (host, want) => {
    const e = (await serveDashboard({ workspace: dir, port: 0, host }).catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(HostUnavailableError);
    expect(e.message).toMatch(want);
    expect(e.message).not.toMatch(/\n/);
  });
});
