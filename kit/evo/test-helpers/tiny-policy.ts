import type { Operator, OperatorContext, Policy, PolicyOutput } from "../../policy/types.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Rng } from "../../util/rng.js";

/** The tiny policy's solution spec: one sklearn model, or an average of two (crossover). */
export interface TinySpec { readonly models: readonly { kind: "knn" | "tree" | "logreg"; param: number }[]; readonly bug: boolean }

/**
 * A small real policy for tests of the loop (written before the grammar policy existed): emits
 * small pure-Python programs (kNN, logistic regression, a stump) on the task's CSVs. Draft: a random model, sometimes with a bug; Improve: nudges
 * a hyperparameter; Debug: removes the bug; Crossover: averages both parents' models.
 */
export function createTinyPolicy(opts: { bugRate?: number } = {}): Policy {
  const bugRate = opts.bugRate ?? 0.25;
  const randomModel = (rng: Rng) => {
    const kind = (["knn", "tree", "logreg"] as const)[rng.int(3)]!;
    return { kind, param: kind === "knn" ? 1 + rng.int(15) : kind === "tree" ? 1 + rng.int(6) : [0.01, 0.1, 1, 10][rng.int(4)]! };
  };
  return {
    name: "tiny-test",
    async propose(task: TaskPackage, op: Operator, ctx: OperatorContext, rng: Rng): Promise<PolicyOutput> {
      const parent = ctx.parents[0]?.spec as TinySpec | undefined;
      let spec: TinySpec;
      if (op === "draft" || !parent) spec = { models: [randomModel(rng)], bug: rng.next() < bugRate };
      else if (op === "debug") spec = { ...parent, bug: false };
      else if (op === "crossover") spec = { models: [...parent.models, ...((ctx.parents[1]?.spec as TinySpec | undefined)?.models ?? [])].slice(0, 3), bug: false };
      else {
        const m = parent.models.map((x) => ({ ...x, param: x.kind === "logreg" ? x.param * (rng.next() < 0.5 ? 0.5 : 2) : Math.max(1, x.param + (rng.next() < 0.5 ? -1 : 2)) }));
        spec = { models: m, bug: rng.next() < bugRate / 2 };
      }
      const plan = `${op}: ${spec.models.map((m) => `${m.kind}(${m.param})`).join(" + ")}`;
      const code = render(task, spec);
      return { plan, code, spec, usage: { promptChars: (ctx.memory ?? "").length, promptTokens: Math.ceil((ctx.memory ?? "").length / 4), completionTokens: Math.ceil(code.length / 4), latencyMs: 0 } };
    },
  };
}

function render(task: TaskPackage, spec: TinySpec): string {
  // Pure Python (csv module): starts in milliseconds, so the loop tests stay fast on a busy machine.
  const t = task.meta;
  const models = spec.models.map((m) => `("${m.kind}", ${m.param})`).join(", ");
  return `import csv, math, os
d = os.environ["DATA_DIR"]
def load(name):
    with open(os.path.join(d, name)) as f:
        return list(csv.DictReader(f))
train, test = load("${t.files.train}"), load("${t.files.test}")
X = [(float(r["x1"]), float(r["x2"])) for r in train]; y = [int(r["${t.trainTarget}"]) for r in train]
def knn(Xa, ya, x, k):
    near = sorted(range(len(Xa)), key=lambda i: (Xa[i][0] - x[0]) ** 2 + (Xa[i][1] - x[1]) ** 2)[:int(k)]
    return sum(ya[i] for i in near) / len(near)
def logreg(Xa, ya, x, c):
    w = [0.0, 0.0, 0.0]
    for _ in range(30):
        for xi, yi in zip(Xa, ya):
            p = 1 / (1 + math.exp(-(w[0] + w[1] * xi[0] + w[2] * xi[1])))
            g = yi - p
            w = [w[0] + 0.05 * g, w[1] + 0.05 * (g * xi[0] - w[1] / (c * len(Xa))), w[2] + 0.05 * (g * xi[1] - w[2] / (c * len(Xa)))]
    return 1 / (1 + math.exp(-(w[0] + w[1] * x[0] + w[2] * x[1])))
def tree(Xa, ya, x, depth):
    best = None
    for f in (0, 1):
        for t in sorted(set(round(v[f], 1) for v in Xa))[:: max(1, 8 - int(depth))]:
            left = [yy for v, yy in zip(Xa, ya) if v[f] <= t]; right = [yy for v, yy in zip(Xa, ya) if v[f] > t]
            if left and right:
                err = min(sum(left), len(left) - sum(left)) + min(sum(right), len(right) - sum(right))
                if best is None or err < best[0]:
                    best = (err, f, t, sum(left) / len(left), sum(right) / len(right))
    return best[3] if x[best[1]] <= best[2] else best[4]
MODELS = {"knn": knn, "logreg": logreg, "tree": tree}
models = [${models}]
def predict(Xa, ya, x):
    return sum(MODELS[k](Xa, ya, x, p) for k, p in models) / len(models)
cut = int(len(X) * 0.75)
${spec.bug ? "X = X.reshap(-1)\n" : ""}acc = sum((predict(X[:cut], y[:cut], x) > 0.5) == bool(t) for x, t in zip(X[cut:], y[cut:])) / (len(X) - cut)
print(f"Final Validation Score: {acc:.6f}")
with open("submission.csv", "w") as f:
    f.write("${t.idColumn},${t.targetColumns[0]}\\n")
    for r in test:
        f.write(f"{r['${t.idColumn}']},{int(predict(X, y, (float(r['x1']), float(r['x2']))) > 0.5)}\\n")
`;
}
