/**
 * Method families of the cards (docs/paper-map.md: Cards and memory); a program's label joins several of them
 * (e.g. `lightgbm+xgboost`).
 */
export const METHOD_FAMILIES = [
  "ensemble",
  "catboost",
  "lightgbm",
  "xgboost",
  "transformers",
  "neural_net",
  "cv",
  "nlp",
  "sklearn",
  "unknown",
] as const;
/** One family, or several joined by "+" in METHOD_FAMILIES order (see detectMethodFamily). */
export type MethodFamily = string;

/** Families that name a model or a way of combining models: every one detected goes into the label. */
export const MODEL_FAMILIES_JOINED = [
  "ensemble",
  "catboost",
  "lightgbm",
  "xgboost",
  "transformers",
  "neural_net",
] as const;

/** Top-level modules a Python program imports (`import a.b`, `from a.b import c`), sorted, unique. */
export function detectImports(code: string): string[] {
  const out = new Set<string>();
  for (const line of code.split("\n")) {
    const m = /^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w., \t]+?)\s*(?:#.*)?$)/.exec(line);
    if (!m) continue;
    if (m[1]) out.add(m[1].split(".")[0]!);
    else
      for (const part of m[2]!.split(",")) {
        const mod = part
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim()
          .split(".")[0];
        if (mod && /^\w+$/.test(mod)) out.add(mod);
      }
  }
  return [...out].sort();
}

// Keyword rules, checked in METHOD_FAMILIES order against imports and code.
const RULES: Record<Exclude<(typeof METHOD_FAMILIES)[number], "unknown">, { imports?: RegExp; code?: RegExp }> = {
  ensemble: {
    code: new RegExp(
      String.raw`\b(VotingClassifier|VotingRegressor|StackingClassifier|StackingRegressor|blend(ing)?|ensemble of|` +
        String.raw`np\.mean\(\s*\[\s*\w+\.predict)`,
      "i",
    ),
  },
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
 * The method-family label of a program from its imports and keywords: every detected family among
 * ensemble (Voting/Stacking/blending), catboost, lightgbm, xgboost, transformers and neural_net,
 * joined by "+" in METHOD_FAMILIES order (e.g. `lightgbm+xgboost`, `ensemble+xgboost`); when none of
 * those, the first of cv, nlp, sklearn; else unknown.
 */
export function detectMethodFamily(code: string | null | undefined, imports = detectImports(code ?? "")): MethodFamily {
  if (!code) return "unknown";
  const hit = (f: Exclude<(typeof METHOD_FAMILIES)[number], "unknown">) => {
    const r = RULES[f];
    return (r.imports ? imports.some((i) => r.imports!.test(i)) : false) || (r.code ? r.code.test(code) : false);
  };
  const joined = MODEL_FAMILIES_JOINED.filter(hit);
  if (joined.length) return joined.join("+");
  for (const f of ["cv", "nlp", "sklearn"] as const) if (hit(f)) return f;
  return "unknown";
}

/** The base families a label joins (`lightgbm+xgboost` → lightgbm, xgboost). */
export const labelFamilies = (label: string): string[] => label.split("+");
