import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { saveCheckpoint } from "../erl/index.js";
import { writeGrammarRun } from "../erl/sft/test-helpers/grammar-run.js";
import { resolveTask } from "../gym/index.js";
import { defaultGrammarParams, type GrammarParams } from "../policy/grammar/index.js";
import { openWorkspace } from "../store/index.js";

const main = join(import.meta.dirname, "main.ts");
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

// B = uniform except logit +2 on xgboost for tabular Draft's model: against uniform A, only that decision moves, and
// on a situation of K options KL(U_K ‖ p_B) = Σ (1/K) ln((1/K) / p_B(o)) = ln((e² + K − 1) / K) − 2/K.
const XGB: GrammarParams = { version: 3, logits: { "draft.tabular.model": { xgboost: 2 } }, optionWeights: {} };
const klXgb = (k: number) => Math.log((Math.exp(2) + k - 1) / k) - 2 / k;

describe("openmle policy diff (CLI)", () => {
  it("stored runs by id, a checkpoint and a params file; fresh drafts on an empty workspace; bad input in one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-policy-cli-"));
    const wsDir = join(dir, "ws");
    const ws = await openWorkspace(wsDir);
    try {
      await writeGrammarRun(ws, "r1", await resolveTask("penguins"), defaultGrammarParams());
      await saveCheckpoint(ws, { name: "xgb", params: XGB, parent: "uniform", source: "import" });
    } finally {
      ws.close();
    }
    const file = join(dir, "xgb.json");
    writeFileSync(file, JSON.stringify(XGB));

    const r = cli("policy", "diff", "uniform", "xgb", "--workspace", wsDir, "--runs", "r1", "--json");
    expect(r.err).toBe("");
    const res = JSON.parse(r.out);
    expect(res).toMatchObject({ a: "uniform", b: "xgb", programs: 3, source: { kind: "stored", ids: ["r1"] } });
    expect(res.skipped).toEqual([{ run_id: "r1", node_id: "n3", reason: "no grammar trace (not written by the grammar)" }]);
    expect(res.situations.length).toBeGreaterThan(0);
    let mass = 0;
    for (const s of res.situations) {
      expect(s.decision).toBe("draft.tabular.model");
      expect(s.top_option).toBe("xgboost");
      expect(s.kl).toBeCloseTo(klXgb(s.options.length), 10);
      expect(s.sentence).toMatch(/^Draft model on small tabular multiclass classification \(.*\): xgboost \[.*\] 0\.\d\d → 0\.\d\d$/);
      mass += s.count * s.kl;
    }
    expect(res.mean_kl).toBeCloseTo(mass / res.probes, 12);
    expect(res.kl_per_program).toBeCloseTo(mass / 3, 12);

    const h = cli("policy", "diff", "uniform", file, "--workspace", wsDir, "--tasks", "penguins");
    expect(h.err).toBe("");
    const lines = h.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^KL\\(A ‖ B\\) = [\\d.]+ nats per decision over ${res.probes} probe decisions of 3 programs`));
    expect(lines[1]).toBe(`A = uniform, B = ${file}; probes: the programs of 1 stored run`);
    expect(lines[2]).toMatch(/^1 programs left out/);
    expect(lines[4]).toMatch(/^ +KL +TV +share +n +situation: top mover p_A → p_B$/);
    expect(lines[5]).toMatch(/^ +[\d.]+ +[\d.]+ +[\d.]+% +\d+ +Draft model on small tabular .*: xgboost \[/);
    expect(h.out).not.toContain("{");

    const empty = join(dir, "empty");
    mkdirSync(empty);
    await openWorkspace(empty).then((w) => w.close());
    const fresh = cli("policy", "diff", "default", "uniform", "--workspace", empty, "--draft-on", "penguins", "--drafts", "2", "--top", "3");
    expect(fresh.err).toBe("");
    expect(fresh.out).toMatch(/^KL\(A ‖ B\) = [\d.]+ nats per decision over \d+ probe decisions of 2 programs/);
    expect(fresh.out).toContain("probes: 2 fresh drafts of A on each of 1 task (sampled, not executed)");
    expect(fresh.out.trimEnd().split("\n").at(-1)).toMatch(/^\(\d+ more situations: --top N or --json\)$/);

    // On an empty context every model option is "untried": default's context weights shift all alike, so it
    // decides as its version-1 hand-set logits (default@1) do.
    const same = cli("policy", "diff", "default", "default@1", "--draft-on", "penguins", "--drafts", "2");
    expect(same.err).toBe("");
    expect(same.out).toMatch(/^KL\(A ‖ B\) = 0 nats per decision over \d+ probe decisions of 2 programs/);
    expect(same.out.trimEnd().split("\n").at(-1)).toBe("no decision moved: A and B agree on every probe");

    const bad: [string[], RegExp][] = [
      [["policy", "diff", "default", "uniform", "--runs", "r1"], /^openmle: --runs and --tasks read stored runs: pass --workspace DIR too\.$/],
      [["policy", "diff", "default", "nope", "--workspace", wsDir, "--runs", "r1"], /^openmle: no checkpoint "nope"/],
      [["policy", "diff", "default", "uniform", "--workspace", wsDir, "--runs", "r9"], /^openmle: run "r9" is not in workspace/],
    ];
    for (const [args, want] of bad) {
      const b = cli(...args);
      expect(b.code, args.join(" ")).toBe(1);
      expect(b.err.trim()).toMatch(want);
      expect(b.err.trim().split("\n")).toHaveLength(1);
    }
  }, 400_000);
});
