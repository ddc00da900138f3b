// A candidate's input is confined to its source (issue 59 point 3): an npm object inside its package's folder, a
// Debian object under /usr/share; a refusal names the candidate, the path and the rule, on one line.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CorpusExportError } from "./corpus-jail.js";
import { exportCandidate } from "./export.js";
import { loadManifest } from "./manifest.js";
import { candidateInput, npmPackageDir } from "./source-paths.js";
import type { Candidate } from "./types.js";

const tmp = mkdtempSync(join(tmpdir(), "corpus-source-paths-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const secret = join(tmp, "root-only.csv");
writeFileSync(secret, "a,b\n1,2\n", { mode: 0o600 });

const vega = npmPackageDir("vega-datasets");
const npm = (over: Partial<Candidate>): Candidate => ({
  id: "npm-evil", source: "npm", package: "vega-datasets", version: "1", object: "data/cars.json",
  licence: "x", description: "x", ...over,
});

describe("candidateInput", () => {
  it("accepts every npm and Debian candidate of the manifest, at its real path", () => {
    const inputs = loadManifest().filter((c) => c.source === "npm" || c.source === "debian").map(candidateInput);
    expect(inputs.length).toBeGreaterThan(40);
    expect(candidateInput(npm({}))).toBe(join(vega, "data", "cars.json"));
  });

  it.each<[string, Partial<Candidate>, RegExp]>([
    ["an object climbing out with ..", { object: relative(vega, secret) }, /^candidate npm-evil \(npm package vega-datasets\): path "\.\.\/.*root-only\.csv" has a "\.\." part .*\(rule parent\)\. Fix: /],
    ["an absolute object", { object: secret }, /path "\/.*root-only\.csv" is absolute .*\(rule absolute\)/],
    ["a package name climbing out of node_modules", { package: "../../../tmp" }, /"\.\.\/\.\.\/\.\.\/tmp" is not an npm package name \(rule: name or @scope\/name\)/],
    ["a linked package (the kit itself)", { package: "openmle", object: "package.json" }, /npm package openmle links to \S+, outside node_modules/],
    ["a Debian object outside /usr/share", { source: "debian", package: "x", object: secret }, /object \S+root-only\.csv is not under \/usr\/share/],
    ["a Debian object climbing out", { source: "debian", package: "x", object: `/usr/share/../..${secret}` }, /has a "\.\." part .*\(rule parent\)/],
  ])("refuses %s in one line naming the candidate, the path and the rule", (_, over, message) => {
    const e = (() => {
      try {
        return candidateInput(npm(over));
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(CorpusExportError);
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain("\n");
  });

  it("an export of an escaping candidate stops before the jail: no table", async () => {
    const out = join(tmp, "out");
    const e = await exportCandidate(npm({ object: relative(vega, secret) }), out).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(CorpusExportError);
    expect((e as CorpusExportError).candidate).toBe("npm-evil");
  });
});
