import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";

const main = join(import.meta.dirname, "main.ts");
const paper = join(import.meta.dirname, "..", "gym", "test-helpers", "paper-task");
const tmp = mkdtempSync(join(tmpdir(), "openmle-task-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res) => {
    const p = spawn(process.execPath, ["--import", "tsx", main, ...args], { env: { ...process.env, OPENMLE_CACHE: join(tmp, "cache") } });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => res({ code, out, err }));
  });
}

describe("openmle task", () => {
  test("list --json gives the suite; bad ids give one line and exit 1", async () => {
    const [list, bad] = await Promise.all([cli("task", "list", "--json"), cli("task", "build", "--builtin", "nope", "--out", join(tmp, "x"))]);
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.out) as { id: string }[];
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(rows[0]!)).toEqual(["id", "name", "modality", "task_type", "metric", "source", "licence"]);
    expect(bad.code).toBe(1);
    expect(bad.err.trim().split("\n")).toHaveLength(1);
    expect(bad.err).toMatch(/unknown built-in task "nope"/);
  }, 300_000);

  test("build a spec, describe, score and check with --json, storing reviews", async () => {
    const table = join(tmp, "customers.csv");
    writeFileSync(table, (await import("node:fs")).readFileSync(join(paper, "raw", "customers.csv")));
    writeFileSync(join(tmp, "spec.json"), JSON.stringify({ id: "churn", table: "customers.csv", target: "churned", idColumn: "customer_id", metric: "roc_auc", split: { kind: "stratified" } }));
    const built = await cli("task", "build", join(tmp, "spec.json"), "--out", join(tmp, "churn"), "--json");
    expect(built.code, built.err).toBe(0);
    expect(JSON.parse(built.out)).toMatchObject({ id: "churn", meta: { metric: "roc_auc", target_columns: ["churned"] } });
    const [desc, score, check] = await Promise.all([
      cli("task", "describe", join(tmp, "churn"), "--json"),
      cli("task", "score", join(tmp, "churn"), join(tmp, "churn", "data", "public", "sample_submission.csv"), "--json"),
      cli("task", "check", join(tmp, "churn"), "--workspace", join(tmp, "ws"), "--json"),
    ]);
    expect(JSON.parse(desc.out).description).toMatch(/## Metric/);
    expect(JSON.parse(score.out)).toEqual({ ok: true, score: 0.5 });
    const report = JSON.parse(check.out);
    expect(Object.keys(report)).toEqual(["task", "dir", "passed", "metric_valid", "checks", "semantic", "accepted"]);
    expect(report).toMatchObject({ passed: true, metric_valid: true, semantic: { verdict: "skipped" }, accepted: false });
    const q = await cli("workspace", "query", join(tmp, "ws"), "SELECT kind, verdict FROM task_reviews ORDER BY kind", "--json");
    expect(JSON.parse(q.out)).toEqual([{ kind: "quality", verdict: "pass" }, { kind: "semantic", verdict: "skipped" }]);
  }, 300_000);

  test("build --table frames a table by the corpus' rules, prints each choice and takes overrides", async () => {
    const csv = join(paper, "raw", "customers.csv");
    const lines = (await import("node:fs")).readFileSync(csv, "utf8").trim().split("\n");
    const names = lines[0]!.split(",");
    const jsonl = join(tmp, "customers.jsonl");
    writeFileSync(jsonl, lines.slice(1).map((l) => JSON.stringify(Object.fromEntries(l.split(",").map((v, i) => [names[i], i === 0 || i === 3 ? v : Number(v)])))).join("\n"));
    const [built, keyed, fromJsonl, noTarget, badKeep, specAndTable] = await Promise.all([
      cli("task", "build", "--table", csv, "--target", "churned", "--out", join(tmp, "framed"), "--json"),
      cli("task", "build", "--table", csv, "--target", "churned", "--id-column", "customer_id", "--id", "churn-keyed", "--dry-run"),
      cli("task", "build", "--table", jsonl, "--target", "churned", "--dry-run", "--json"),
      cli("task", "build", "--table", csv, "--out", join(tmp, "x")),
      cli("task", "build", "--table", csv, "--target", "churned", "--keep", "nope", "--dry-run"),
      cli("task", "build", join(tmp, "spec.json"), "--target", "churned", "--out", join(tmp, "y")),
    ]);
    expect(built.code, built.err).toBe(0);
    const b = JSON.parse(built.out);
    expect(b).toMatchObject({ id: "customers-churned", meta: { metric: "roc_auc", id_column: "id" }, spec: { drop: ["customer_id"], split: { kind: "stratified" } } });
    expect(b.choices.find((c: { field: string }) => c.field === "drop")).toEqual({ field: "drop", value: "customer_id", why: "an identifier (one value per row): it tells nothing a model should learn" });
    expect(built.err).toMatch(/^framing .*customers\.csv \(200 rows, 5 columns\) as task customers-churned:\n {2}target {4}churned/);
    expect(built.err).toMatch(/metric {4}roc_auc \(higher is better\) +a binary target \(override: --metric\)/);
    // An override is printed as given; the id column named is kept, not dropped.
    expect(keyed.code, keyed.err).toBe(0);
    expect(keyed.out).toMatch(/idColumn +customer_id +given\n/);
    expect(keyed.out).toMatch(/"id": "churn-keyed"/);
    expect(keyed.out).toMatch(/"drop": \[\]/);
    expect(keyed.out).toMatch(/\(--dry-run: nothing built\)/);
    // JSONL is profiled as prepare.py reads it: the same choices.
    expect(fromJsonl.code, fromJsonl.err).toBe(0);
    expect(JSON.parse(fromJsonl.out).choices).toEqual(b.choices);
    expect([noTarget.code, noTarget.err.trim()]).toEqual([1, "openmle: --table needs --target <column>, the column to predict."]);
    expect(badKeep.err.trim()).toBe('openmle: kept column "nope" is not a column of customers.csv. Fix: pick one of customer_id, tenure_months, monthly_charges, plan, churned.');
    expect(specAndTable.err.trim()).toBe("openmle: --target frames a table: use it with --table <file>.");
  }, 300_000);
});
