import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TaskPackage } from "../../gym/types.js";

/** A small real classification package (two noisy blobs) written to `dir`; deterministic. */
export function writeTinyTask(dir: string): TaskPackage {
  const pub = join(dir, "data/public");
  const priv = join(dir, "data/private");
  mkdirSync(pub, { recursive: true });
  mkdirSync(priv, { recursive: true });
  let s = 12345;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const rows = Array.from({ length: 160 }, (_, i) => {
    const y = i % 2;
    return { id: i, x1: (y ? 1 : -1) * 0.8 + 2 * (rnd() - 0.5) * 1.6, x2: (y ? 0.5 : -0.5) + 2 * (rnd() - 0.5) * 1.6, y };
  });
  const fmt = (r: (typeof rows)[number]) => `${r.id},${r.x1.toFixed(4)},${r.x2.toFixed(4)}`;
  writeFileSync(join(pub, "train.csv"), ["id,x1,x2,y", ...rows.slice(0, 120).map((r) => `${fmt(r)},${r.y}`)].join("\n") + "\n");
  writeFileSync(join(pub, "test.csv"), ["id,x1,x2", ...rows.slice(120).map(fmt)].join("\n") + "\n");
  writeFileSync(join(pub, "sample_submission.csv"), ["id,y", ...rows.slice(120).map((r) => `${r.id},0`)].join("\n") + "\n");
  writeFileSync(join(priv, "test_answer.csv"), ["id,y", ...rows.slice(120).map((r) => `${r.id},${r.y}`)].join("\n") + "\n");
  writeFileSync(join(pub, "description.txt"), "Predict y (0/1) from x1, x2. Metric: accuracy.\n");
  return {
    dir, publicDir: pub, privateDir: priv, description: "Predict y (0/1) from x1, x2. Metric: accuracy.",
    meta: {
      id: "tiny-blobs", name: "Tiny blobs", modality: "tabular", taskType: "classification", idColumn: "id", targetColumns: ["y"],
      trainTarget: "y", metric: "accuracy", higherIsBetter: true, classes: [0, 1],
      files: { train: "train.csv", test: "test.csv", sampleSubmission: "sample_submission.csv" },
    },
  };
}
