/** Method families of spec §4 point 1, most specific first (the first match wins). */
export const METHOD_FAMILIES = ["ensemble", "catboost", "lightgbm", "xgboost", "transformers", "neural_net", "cv", "nlp", "sklearn", "unknown"] as const;
export type MethodFamily = (typeof METHOD_FAMILIES)[number];

/** Top-level modules a Python program imports (`import a.b`, `from a.b import c`), sorted, unique. */
export function detectImports(code: string): string[] {
  const out = new Set<string>();
  for (const line of code.split("\n")) {
    const m = /^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w., \t]+?)\s*(?:#.*)?$)/.exec(line);
    if (!m) continue;
    if (m[1]) out.add(m[1].split(".")[0]!);
    else for (const part of m[2]!.split(",")) {
      const mod = part.trim().split(/\s+as\s+/)[0]!.trim().split(".")[0];
      if (mod && /^\w+$/.test(mod)) out.add(mod);
    }
  }
  return [...out].sort();
}

// Keyword rules, checked in METHOD_FAMILIES order against imports and code.
const RULES: Record<Exclude<MethodFamily, "unknown">, { imports?: RegExp; code?: RegExp }> = {
  ensemble: { code: /\b(VotingClassifier|VotingRegressor|StackingClassifier|StackingRegressor|blend(ing)?|ensemble of|np\.mean\(\s*\[\s*\w+\.predict)/i },
  catboost: { imports: /^catboost$/, code: /\bCatBoost(Classifier|Regressor)\b/ },
  lightgbm: { imports: /^lightgbm$/, code: /\bLGBM(Classifier|Regressor)\b/ },
  xgboost: { imports: /^xgboost$/, code: /\bXGB(Classifier|Regressor)\b/ },
  transformers: { imports: /^(transformers|sentence_transformers|timm)$/, code: /\bAutoModel\w*\.from_pretrained\b/ },
  neural_net: { imports: /^(torch|tensorflow|keras|jax|flax)$/, code: /\bMLP(Classifier|Regressor)\b|\bnn\.Module\b/ },
  cv: { imports: /^(cv2|PIL|torchvision|skimage|imageio)$/ },
  nlp: { imports: /^(nltk|spacy|gensim)$/, code: /\b(TfidfVectorizer|CountVectorizer|HashingVectorizer)\b/ },
  sklearn: { imports: /^sklearn$/ },
};

/**
 * The method family of a program from its imports and keywords. Several model families in one
 * program (two of catboost/lightgbm/xgboost/neural_net, or a Voting/Stacking estimator) is an ensemble.
 */
export function detectMethodFamily(code: string | null | undefined, imports = detectImports(code ?? "")): MethodFamily {
  if (!code) return "unknown";
  const hit = (f: Exclude<MethodFamily, "unknown">) => {
    const r = RULES[f];
    return (r.imports ? imports.some((i) => r.imports!.test(i)) : false) || (r.code ? r.code.test(code) : false);
  };
  const models = (["catboost", "lightgbm", "xgboost", "neural_net"] as const).filter(hit);
  if (hit("ensemble") || models.length >= 2) return "ensemble";
  for (const f of METHOD_FAMILIES) if (f !== "unknown" && f !== "ensemble" && hit(f)) return f;
  return "unknown";
}
