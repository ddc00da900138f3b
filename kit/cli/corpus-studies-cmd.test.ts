import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeCorpusIndex } from "../gym/corpus/corpus-index.js";
import { writeStudies } from "../gym/corpus/studies-file.js";
import type { StudyMerge } from "../gym/corpus/study-merge.js";
import { suited } from "../gym/test-helpers/corpus-fixtures.js";
import { buildProgram } from "./program.js";
import { UsageError } from "./run-cli.js";

// `openmle task studies` over a studies.json and an index written by their own writers under a temp OPENMLE_CACHE.
const CACHE = mkdtempSync(join(tmpdir(), "openmle-studies-cmd-"));
const before = process.env.OPENMLE_CACHE;
const MERGES: StudyMerge[] = [
  {
    a: "r-gss-ozone",
    b: "r-x-ozone",
    study: "r-gss-ozone",
    evidence: { kind: "row-subset", over: "all", shared: 329, of: 330, rows: [330, 366], rate: 1 },
  },
  { a: "r-mass-pima-te", b: "r-mass-pima-tr", study: "pima", evidence: { kind: "manifest", study: "pima" } },
  { a: "r-mass-pima-te", b: "r-mlbench-pima", study: "pima", evidence: { kind: "manifest", study: "pima" } },
  {
    a: "r-dslabs-gapminder",
    b: "sm-fertility",
    study: "gapminder",
    evidence: {
      kind: "near-copy", key: ["country", "country name"], by: "year", columns: ["fertility", "1990"], r: 0.9971,
      matched: 180, identical: 0.2, differenced: false,
    },
  },
];

async function cli(...args: string[]): Promise<string> {
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    await buildProgram().exitOverride().parseAsync(args, { from: "user" });
    return write.mock.calls.map((c) => String(c[0])).join("");
  } finally {
    write.mockRestore();
  }
}

beforeAll(() => {
  process.env.OPENMLE_CACHE = CACHE;
  writeStudies({ buildId: "b1", merges: MERGES });
});
afterAll(() => {
  if (before === undefined) delete process.env.OPENMLE_CACHE;
  else process.env.OPENMLE_CACHE = before;
});

describe("openmle task studies", () => {
  it("without an index: the groups, members and evidence in words", async () => {
    const text = await cli("task", "studies");
    expect(text.split("\n").slice(0, 2)).toEqual([
      "corpus build b1: 3 studies merge 7 candidates; 4 pairs with evidence (row-subset 1, manifest 2, near-copy 1)",
      "no corpus index: suites not shown",
    ]);
    expect(text).toContain("r-gss-ozone: r-gss-ozone, r-x-ozone\n  r-gss-ozone + r-x-ozone: 329 of 330 rows identical");
    expect(text).toContain('  r-mass-pima-te, r-mass-pima-tr, r-mlbench-pima: state study "pima" (manifest)');
    expect(text).toContain(
      "  r-dslabs-gapminder + sm-fertility: r = 0.997 over 180 matched rows of fertility ~ 1990 joined on country ~ " +
        "country name, by year; 20% identical (near-copy)",
    );
    expect(text).not.toMatch(/NaN|undefined|\{/);
    // An index that cannot be read (an old layout) leaves the merges readable, without suites.
    writeFileSync(join(CACHE, "corpus", "index.json"), "{}");
    expect((await cli("task", "studies")).split("\n")[1]).toMatch(/is not a corpus index: .*: suites not shown$/);
  });

  it("with an index: each member's suites; --json is snake_case", async () => {
    writeCorpusIndex({
      buildId: "b1",
      builtAt: "2026-12-02T00:01:00.000Z",
      manifestHash: "m",
      tasks: [
        suited("r-gss-ozone-upo3", { candidate: "r-gss-ozone", study: "r-gss-ozone", suite: "dev" }),
        suited("r-x-ozone-o3", { candidate: "r-x-ozone", study: "r-gss-ozone", suite: "dev" }),
        suited("sm-fertility-x", { candidate: "sm-fertility", study: "gapminder" }),
      ],
    });
    const text = await cli("task", "studies");
    expect(text).toContain("r-gss-ozone: r-gss-ozone (dev), r-x-ozone (dev)");
    expect(text).toContain("gapminder: r-dslabs-gapminder (no task), sm-fertility (train)");
    const json = JSON.parse(await cli("task", "studies", "--json"));
    expect(json).toMatchObject({ build_id: "b1", index_build_id: "b1" });
    expect(json.studies.map((s: { study: string }) => s.study)).toEqual(["r-gss-ozone", "pima", "gapminder"]);
    expect(json.studies[2].merges[0]).toMatchObject({
      a: "r-dslabs-gapminder",
      evidence: { kind: "near-copy", matched: 180, columns: ["fertility", "1990"] },
      text: expect.stringMatching(/^r = 0\.997 /),
    });
    expect(json.studies[0].members).toEqual([
      { id: "r-gss-ozone", suites: ["dev"] },
      { id: "r-x-ozone", suites: ["dev"] },
    ]);
  });

  it("a corpus never built says what to run", async () => {
    await expect(cli("task", "studies", "--dir", join(CACHE, "nothing"))).rejects.toThrow(UsageError);
    await expect(cli("task", "studies", "--dir", join(CACHE, "nothing"))).rejects.toThrow(/openmle task build-corpus/);
  });
});
