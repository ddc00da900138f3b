import type { ModelFamily } from "../spec.js";
import { fragment, type Fragment } from "./fragment.js";

/** The torch model classes of the families used (none without a torch family). */
export function torchFragments(fams: ReadonlySet<ModelFamily>): Fragment[] {
  if (!fams.has("torch_mlp") && !fams.has("torch_cnn")) return [];
  const common = fragment(
    "models.torch",
    { defines: ["torch", "nn", "TorchModel"], uses: ["N_JOBS", "SEED", "np", "TASK_TYPE"] },
    `
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
`,
  );
  const mlp = fragment(
    "model.torch_mlp",
    { defines: ["TorchMLP"], uses: ["TorchModel", "nn"] },
    `
class TorchMLP(TorchModel):
    """Two hidden layers with ReLU and dropout."""
    def __init__(self, hidden=128, epochs=20, lr=1e-3, dropout=0.1, batch_size=256):
        super().__init__(epochs, lr, batch_size)
        self.hidden, self.dropout = hidden, dropout

    def network(self, d_in, d_out):
        h = self.hidden
        return nn.Sequential(nn.Linear(d_in, h), nn.ReLU(), nn.Dropout(self.dropout), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, d_out))
`,
  );
  const cnn = fragment(
    "model.torch_cnn",
    { defines: ["TorchCNN"], uses: ["TorchModel", "nn"] },
    `
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
`,
  );
  return [common, ...(fams.has("torch_mlp") ? [mlp] : []), ...(fams.has("torch_cnn") ? [cnn] : [])];
}
