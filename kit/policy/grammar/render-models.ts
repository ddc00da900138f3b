import type { ModelSpec, SolutionSpec } from "./spec.js";

const num = (v: unknown, d: number) => (typeof v === "number" ? v : d);
const depth = (v: unknown) => (typeof v === "number" && v > 0 ? String(v) : "None");

/** Python constructor expression for one model; `text` switches to sparse-friendly variants. */
export function modelExpr(m: ModelSpec, s: SolutionSpec): string {
  const cls = s.taskType === "classification";
  const text = s.modality === "text";
  const p = m.params;
  switch (m.family) {
    case "linear":
      return cls ? `LogisticRegression(C=${num(p.C, 1)}, max_iter=500)` : `Ridge(alpha=${+(1 / num(p.C, 1)).toPrecision(3)})`;
    case "random_forest":
    case "extra_trees": {
      const base = m.family === "random_forest" ? "RandomForest" : "ExtraTrees";
      return `${base}${cls ? "Classifier" : "Regressor"}(n_estimators=${num(p.n_estimators, 200)}, max_depth=${depth(p.max_depth)}, min_samples_leaf=${num(p.min_samples_leaf, 1)}, n_jobs=N_JOBS, random_state=SEED)`;
    }
    case "hist_gb":
      return `HistGradientBoosting${cls ? "Classifier" : "Regressor"}(max_iter=${num(p.max_iter, 200)}, learning_rate=${num(p.learning_rate, 0.1)}, max_leaf_nodes=${num(p.max_leaf_nodes, 31)}, early_stopping=True, n_iter_no_change=15, random_state=SEED)`;
    case "gradient_boosting":
      return `GradientBoosting${cls ? "Classifier" : "Regressor"}(n_estimators=${num(p.n_estimators, 100)}, learning_rate=${num(p.learning_rate, 0.1)}, max_depth=${num(p.max_depth, 3)}, subsample=0.8, random_state=SEED)`;
    case "svm":
      if (text) return cls ? `CalibratedClassifierCV(LinearSVC(C=${num(p.C, 1)}), cv=3)` : `LinearSVR(C=${num(p.C, 1)}, max_iter=5000)`;
      return cls ? `SVC(C=${num(p.C, 1)}, probability=True, random_state=SEED)` : `SVR(C=${num(p.C, 1)})`;
    case "knn":
      return `KNeighbors${cls ? "Classifier" : "Regressor"}(n_neighbors=${num(p.n_neighbors, 15)}, weights="${p.weights === "distance" ? "distance" : "uniform"}", n_jobs=N_JOBS)`;
    case "xgboost":
      return `xgb.XGB${cls ? "Classifier" : "Regressor"}(n_estimators=${num(p.n_estimators, 200)}, max_depth=${num(p.max_depth, 5)}, learning_rate=${num(p.learning_rate, 0.1)}, subsample=${num(p.subsample, 0.8)}, colsample_bytree=0.8, tree_method="hist", n_jobs=N_JOBS, random_state=SEED)`;
    case "torch_mlp":
      return `TorchMLP(hidden=${num(p.hidden, 128)}, epochs=${num(p.epochs, 20)}, lr=${num(p.lr, 0.001)}, dropout=${num(p.dropout, 0.1)}, batch_size=${num(p.batch_size, 256)})`;
    case "torch_cnn":
      return `TorchCNN(side=SIDE, channels=${num(p.channels, 16)}, epochs=${num(p.epochs, 5)}, lr=${num(p.lr, 0.002)}, batch_size=${num(p.batch_size, 128)})`;
  }
}

/** Imports needed by the chosen models (only those, so a missing optional package fails only when used). */
export function modelImports(s: SolutionSpec): string[] {
  const cls = s.taskType === "classification";
  const lines = new Set<string>();
  const fams = new Set(s.models.map((m) => m.family));
  if (fams.has("linear") || s.ensemble === "stack") lines.add(`from sklearn.linear_model import ${cls ? "LogisticRegression" : "Ridge"}`);
  if (fams.has("random_forest")) lines.add(`from sklearn.ensemble import RandomForest${cls ? "Classifier" : "Regressor"}`);
  if (fams.has("extra_trees")) lines.add(`from sklearn.ensemble import ExtraTrees${cls ? "Classifier" : "Regressor"}`);
  if (fams.has("hist_gb")) lines.add(`from sklearn.ensemble import HistGradientBoosting${cls ? "Classifier" : "Regressor"}`);
  if (fams.has("gradient_boosting")) lines.add(`from sklearn.ensemble import GradientBoosting${cls ? "Classifier" : "Regressor"}`);
  if (fams.has("svm")) {
    if (s.modality === "text") lines.add(cls ? "from sklearn.svm import LinearSVC\nfrom sklearn.calibration import CalibratedClassifierCV" : "from sklearn.svm import LinearSVR");
    else lines.add(`from sklearn.svm import ${cls ? "SVC" : "SVR"}`);
  }
  if (fams.has("knn")) lines.add(`from sklearn.neighbors import KNeighbors${cls ? "Classifier" : "Regressor"}`);
  if (fams.has("xgboost")) lines.add("import xgboost as xgb");
  return [...lines];
}

/** The torch model classes, rendered only when a torch family is used. */
export function torchClasses(s: SolutionSpec): string {
  const fams = new Set(s.models.map((m) => m.family));
  if (!fams.has("torch_mlp") && !fams.has("torch_cnn")) return "";
  const common = `
import torch
import torch.nn as nn
torch.set_num_threads(N_JOBS)
torch.manual_seed(SEED)

class TorchModel:
    """sklearn-style wrapper: standardises inputs, trains with Adam, predicts labels/probabilities/values."""
    def __init__(self, epochs, lr, batch_size):
        self.epochs, self.lr, self.batch_size = epochs, lr, batch_size

    def network(self, d_in, d_out):
        raise NotImplementedError

    def fit(self, X, y):
        X = np.asarray(X, dtype=np.float32)
        self.mu, self.sd = X.mean(axis=0), X.std(axis=0) + 1e-6
        cls = TASK_TYPE == "classification"
        self.classes_ = np.unique(y) if cls else None
        if cls:
            target = torch.tensor(np.searchsorted(self.classes_, y), dtype=torch.long)
        else:
            self.y_mu, self.y_sd = float(np.mean(y)), float(np.std(y)) + 1e-9
            target = torch.tensor((np.asarray(y, dtype=np.float32) - self.y_mu) / self.y_sd).reshape(-1, 1)
        self.net = self.network(X.shape[1], len(self.classes_) if cls else 1)
        opt = torch.optim.Adam(self.net.parameters(), lr=self.lr)
        loss_fn = nn.CrossEntropyLoss() if cls else nn.MSELoss()
        data = torch.tensor((X - self.mu) / self.sd)
        gen = torch.Generator().manual_seed(SEED)
        self.net.train()
        for _ in range(self.epochs):
            for idx in torch.randperm(len(data), generator=gen).split(self.batch_size):
                opt.zero_grad()
                loss_fn(self.net(data[idx]), target[idx]).backward()
                opt.step()
        return self

    def raw(self, X):
        self.net.eval()
        with torch.no_grad():
            return self.net(torch.tensor((np.asarray(X, dtype=np.float32) - self.mu) / self.sd))

    def predict_proba(self, X):
        return torch.softmax(self.raw(X), dim=1).numpy()

    def predict(self, X):
        if TASK_TYPE == "classification":
            return self.classes_[self.predict_proba(X).argmax(axis=1)]
        return self.raw(X).numpy().ravel() * self.y_sd + self.y_mu
`;
  const mlp = fams.has("torch_mlp") ? `
class TorchMLP(TorchModel):
    """Two hidden layers with ReLU and dropout."""
    def __init__(self, hidden=128, epochs=20, lr=1e-3, dropout=0.1, batch_size=256):
        super().__init__(epochs, lr, batch_size)
        self.hidden, self.dropout = hidden, dropout

    def network(self, d_in, d_out):
        h = self.hidden
        return nn.Sequential(nn.Linear(d_in, h), nn.ReLU(), nn.Dropout(self.dropout), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, d_out))
` : "";
  const cnn = fams.has("torch_cnn") ? `
class TorchCNN(TorchModel):
    """A small CNN on side x side grey images: two conv blocks, global pooling, a linear head."""
    def __init__(self, side, channels=16, epochs=5, lr=2e-3, batch_size=128):
        super().__init__(epochs, lr, batch_size)
        self.side, self.channels = side, channels

    def network(self, d_in, d_out):
        c, s = self.channels, self.side
        return nn.Sequential(
            nn.Unflatten(1, (1, s, s)),
            nn.Conv2d(1, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(c, 2 * c, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
            nn.Flatten(), nn.Linear(2 * c * 16, d_out))
` : "";
  return common + mlp + cnn;
}
