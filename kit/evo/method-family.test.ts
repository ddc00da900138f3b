import { describe, expect, it } from "vitest";
import { detectImports, detectMethodFamily } from "./method-family.js";

describe("detectImports", () => {
  it.each([
    { code: "import numpy as np\nimport pandas as pd", out: ["numpy", "pandas"] },
    { code: "from sklearn.linear_model import Ridge\nimport os, sys", out: ["os", "sklearn", "sys"] },
    { code: "  import torch.nn as nn  # model\nx = 'import fake'", out: ["torch"] },
    { code: "print('no imports')", out: [] },
  ])("$out", ({ code, out }) => expect(detectImports(code)).toEqual(out));
});

describe("detectMethodFamily", () => {
  it.each([
    { code: "from sklearn.ensemble import RandomForestClassifier", f: "sklearn" },
    { code: "import xgboost as xgb\nm = xgb.XGBClassifier()", f: "xgboost" },
    { code: "import lightgbm as lgb", f: "lightgbm" },
    { code: "from catboost import CatBoostRegressor", f: "catboost" },
    { code: "import lightgbm\nimport xgboost", f: "lightgbm+xgboost" }, // joined, not collapsed to ensemble
    { code: "import xgboost\nfrom catboost import CatBoostRegressor\nimport torch", f: "catboost+xgboost+neural_net" },
    { code: "from sklearn.ensemble import VotingClassifier", f: "ensemble" },
    { code: "import xgboost\nfrom sklearn.ensemble import StackingRegressor", f: "ensemble+xgboost" },
    { code: "import torch\nfrom PIL import Image", f: "neural_net" },
    { code: "from transformers import AutoTokenizer", f: "transformers" },
    { code: "import torch\nclass Net(nn.Module): pass", f: "neural_net" },
    { code: "from sklearn.neural_network import MLPClassifier", f: "neural_net" },
    { code: "from PIL import Image\nfrom sklearn.svm import SVC", f: "cv" },
    { code: "from sklearn.feature_extraction.text import TfidfVectorizer", f: "nlp" },
    { code: "import numpy as np\nprint(1)", f: "unknown" },
    { code: "", f: "unknown" },
  ])("$f", ({ code, f }) => expect(detectMethodFamily(code)).toBe(f));
});
