/**
 * A toy search that fills a workspace with search-shaped rows from a real (small) computation, so
 * evaluation and reports can be tested and shown before real `evolve` runs exist. It is NOT the
 * Evo harness and involves no LLM: each "program" is a feature subset of a least-squares model of
 * Miles_per_Gallon on vega-datasets' cars.json, scored by RMSE (lower is better) on a validation
 * and a test split. Operators: draft (random subset), improve (toggle one feature of a parent),
 * crossover (union of two parents), debug (a subset with missing values fails; debug drops those rows).
 * `llm_calls` rows record the real length of the rendered operator context with provider "none";
 * their token counts are estimates (chars/4, tokens_source "estimate").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { finishRun, startRun, type Workspace } from "../../kit/store/index.js";
import { createRng, type Rng } from "../../kit/util/index.js";
import { packageRoot } from "../../kit/eval/index.js";

const FEATURES = ["Cylinders", "Displacement", "Horsepower", "Weight_in_lbs", "Acceleration", "Year"] as const;
type Car = Record<string, number | string | null>;
export const TOY_TASK_ID = "toy-cars-mpg";

function loadCars(): Car[] {
  return JSON.parse(readFileSync(join(packageRoot(), "node_modules", "vega-datasets", "data", "cars.json"), "utf8")) as Car[];
}
const featureValue = (c: Car, f: string): number | null =>
  f === "Year" ? new Date(String(c.Year)).getUTCFullYear() : c[f] === null || c[f] === undefined ? null : Number(c[f]);

/** Least squares with a tiny ridge term via Gaussian elimination; returns weights incl. intercept first. */
function fit(X: number[][], y: number[]): number[] {
  const d = X[0]!.length + 1;
  const A = Array.from({ length: d }, () => new Array<number>(d + 1).fill(0));
  for (let i = 0; i < X.length; i++) {
    const x = [1, ...X[i]!];
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) A[a]![b]! += x[a]! * x[b]!;
      A[a]![d]! += x[a]! * y[i]!;
    }
  }
  for (let a = 1; a < d; a++) A[a]![a]! += 1e-6;
  for (let c = 0; c < d; c++) {
    let p = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    for (let r = 0; r < d; r++) {
      if (r === c) continue;
      const k = A[r]![c]! / A[c]![c]!;
      for (let j = c; j <= d; j++) A[r]![j]! -= k * A[c]![j]!;
    }
  }
  return A.map((row, i) => row[d]! / A[i]![i]!);
}

interface Split { train: Car[]; valid: Car[]; test: Car[] }
function split(cars: Car[]): Split {
  const rows = cars.filter((c) => c.Miles_per_Gallon !== null);
  const rng = createRng(2024);
  const idx = rows.map((_, i) => i).sort(() => rng.next() - 0.5);
  const part = (a: number, b: number) => idx.slice(a, b).map((i) => rows[i]!);
  const n = rows.length;
  return { train: part(0, Math.floor(0.6 * n)), valid: part(Math.floor(0.6 * n), Math.floor(0.8 * n)), test: part(Math.floor(0.8 * n), n) };
}

/** Train on `features` and return validation/test RMSE; NaN features without `dropMissing` make the "program" fail. */
function evaluateSubset(s: Split, features: readonly string[], dropMissing: boolean): { valid: number; test: number } | { error: string } {
  const rowsOf = (cs: Car[]) => (dropMissing ? cs.filter((c) => features.every((f) => featureValue(c, f) !== null)) : cs);
  const train = rowsOf(s.train);
  const X = train.map((c) => features.map((f) => featureValue(c, f)));
  if (X.some((r) => r.some((v) => v === null))) return { error: "ValueError: Input contains NaN" };
  const w = fit(X as number[][], train.map((c) => Number(c.Miles_per_Gallon)));
  const rmse = (cs: Car[]) => {
    const ok = cs.filter((c) => features.every((f) => featureValue(c, f) !== null));
    const mean = train.reduce((a, c) => a + Number(c.Miles_per_Gallon), 0) / train.length;
    const e = cs.map((c) => (ok.includes(c) ? features.reduce((a, f, j) => a + w[j + 1]! * featureValue(c, f)!, w[0]!) : mean) - Number(c.Miles_per_Gallon));
    return Math.sqrt(e.reduce((a, v) => a + v * v, 0) / e.length);
  };
  return { valid: rmse(s.valid), test: rmse(s.test) };
}

/** The task's baselines on the test split: trivial = predict the training mean; reference = least squares on all features (rows with missing values dropped). */
export function toyBaselines(): { trivial: number; reference: number } {
  const s = split(loadCars());
  const ref = evaluateSubset(s, FEATURES, true);
  if ("error" in ref) throw new Error(ref.error);
  return { trivial: (evaluateSubset(s, [], true) as { test: number }).test, reference: ref.test };
}

export interface ToySearchOptions {
  readonly seed: number;
  readonly steps?: number;
  /** "toy-greedy" always improves the best node; "toy-evo" picks random parents and crosses over. */
  readonly harness?: "toy-greedy" | "toy-evo";
}

/** Run one toy search and write tasks/runs/nodes/cards/llm_calls rows; returns the run id. */
export async function runToySearch(ws: Workspace, opts: ToySearchOptions): Promise<string> {
  const harness = opts.harness ?? "toy-evo";
  const steps = opts.steps ?? 16;
  const rng: Rng = createRng(opts.seed);
  const s = split(loadCars());
  if (!(await ws.query("SELECT 1 FROM tasks WHERE task_id = $t", { t: TOY_TASK_ID })).length) {
    await ws.append("tasks", [{ task_id: TOY_TASK_ID, name: "cars MPG (toy)", modality: "tabular", task_type: "regression", metric: "rmse", higher_is_better: false, dir: null, source: "vega-datasets cars.json" }]);
  }
  const runId = await startRun(ws, { taskId: TOY_TASK_ID, harness, policy: "toy", seed: opts.seed, config: { harness, steps, seed: opts.seed }, runId: `${harness}-s${opts.seed}` });
  type N = { id: string; features: string[]; valid: number | null; test: number | null; dropMissing: boolean; generation: number };
  const nodes: N[] = [];
  const nodeRows: Record<string, unknown>[] = [];
  const calls: Record<string, unknown>[] = [];
  for (let step = 0; step < steps; step++) {
    const good = nodes.filter((n) => n.valid !== null);
    const failed = nodes.filter((n) => n.valid === null);
    let operator: string;
    let parents: N[];
    let features: string[];
    let dropMissing = false;
    if (step < 3 || !good.length) {
      operator = "draft"; parents = [];
      features = FEATURES.filter(() => rng.next() < 0.4);
    } else if (failed.length && failed.at(-1) === nodes.at(-1)) {
      operator = "debug"; parents = [failed.at(-1)!]; features = [...parents[0]!.features]; dropMissing = true;
    } else if (harness === "toy-evo" && good.length >= 2 && rng.next() < 0.5) {
      operator = "crossover"; const a = good[rng.int(good.length)]!; const b = good[rng.int(good.length)]!; parents = [a, b];
      features = [...new Set([...a.features, ...b.features])];
    } else {
      operator = "improve";
      const p = harness === "toy-greedy" ? good.reduce((a, b) => (b.valid! < a.valid! ? b : a)) : good[rng.int(good.length)]!;
      parents = [p]; const f = FEATURES[rng.int(FEATURES.length)]!;
      features = p.features.includes(f) ? p.features.filter((x) => x !== f) : [...p.features, f];
    }
    dropMissing ||= parents.some((p) => p.dropMissing);
    const r = evaluateSubset(s, features, dropMissing);
    const generation = parents.length ? Math.max(...parents.map((p) => p.generation)) + 1 : 0;
    const node: N = { id: `n${step}`, features, valid: "error" in r ? null : r.valid, test: "error" in r ? null : r.test, dropMissing, generation };
    nodes.push(node);
    // The operator's context as a real rendered string (its length is what llm_calls.prompt_chars measures).
    const context = `operator: ${operator}\ntask: predict Miles_per_Gallon (RMSE, lower is better)\n` +
      (harness === "toy-greedy" ? nodes.slice(0, -1) : parents).map((p) => `node ${p.id}: features=${p.features.join(",")} valid=${p.valid ?? "failed"}`).join("\n");
    calls.push({ call_id: `${runId}-c${step}`, run_id: runId, node_id: node.id, operator, purpose: "operator", provider: "none", model: "toy-search", prompt_chars: context.length, prompt_tokens: Math.ceil(context.length / 4), completion_tokens: 40, tokens_source: "estimate", status: "ok" });
    nodeRows.push({ run_id: runId, node_id: node.id, island: 0, step, generation, operator, parents: parents.map((p) => p.id), status: "error" in r ? "runtime_error" : "success", error_signature: "error" in r ? r.error : null, valid_score: node.valid, test_score: node.test, admitted: !("error" in r), plan: `features: ${features.join(", ") || "(none: predict the mean)"}` });
  }
  const champion = nodes.filter((n) => n.valid !== null).reduce<N | null>((a, b) => (!a || b.valid! < a.valid! ? b : a), null);
  await ws.append("nodes", nodeRows);
  await ws.append("llm_calls", calls);
  // A card's champion_at_write: at least as good as every earlier scored node when it was written (lower is better).
  let bestSoFar = Infinity;
  const atWrite = nodeRows.map((n) => {
    const v = n.valid_score as number | null;
    return v !== null && v <= bestSoFar && ((bestSoFar = v), true);
  });
  await ws.append("cards", nodeRows.map((n, i) => ({ run_id: runId, node_id: n.node_id, operator: n.operator, parents: n.parents, generation_id: n.generation, score: n.valid_score, status: n.status, method_family: "sklearn", champion_at_write: atWrite[i], lineage_depth: n.generation, utility: n.valid_score === null ? null : -Number(n.valid_score) })));
  await finishRun(ws, runId, "finished", { champion_node_id: champion?.id ?? null, best_valid_score: champion?.valid ?? null, test_score: champion?.test ?? null }, Date.now,
    { champion_node_id: champion?.id ?? null, champion_valid_score: champion?.valid ?? null, champion_test_score: champion?.test ?? null });
  return runId;
}
