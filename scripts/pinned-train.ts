// data/corpus/pinned-train.json from the recorded loops: one set per loop of each data/recorded-runs/<name>/
// loops.parquet, its training tasks (`train_tasks`), so no suite measures a recorded checkpoint on its own training
// data (kit/gym/corpus/pinned-train.ts reads the file).
//   npx tsx scripts/pinned-train.ts            # rewrite the file
//   npx tsx scripts/pinned-train.ts --check    # exit 1 when the file differs from what the recordings give
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";

const ROOT = join(import.meta.dirname, "..");
const RECORDED = join(ROOT, "data", "recorded-runs");
const FILE = join(ROOT, "data", "corpus", "pinned-train.json");
const NOTE =
  "Tasks a recorded or shipped policy was trained on stay in train (kit/gym/corpus/pinned-train.ts), so no suite " +
  "measures a checkpoint on its own training data.";

/** The file's text as the recordings give it: recordings by name, each loop's training tasks in the order stored. */
export async function pinnedTrainText(recorded = RECORDED): Promise<string> {
  const db = await DuckDBInstance.create(":memory:");
  const conn = await db.connect();
  const sets: { source: string; tasks: string[] }[] = [];
  try {
    for (const name of readdirSync(recorded).sort()) {
      const file = join(recorded, name, "loops.parquet");
      if (!existsSync(file)) continue;
      const reader = await conn.runAndReadAll(
        `SELECT loop_id, train_tasks FROM read_parquet('${file.replaceAll("'", "''")}') ORDER BY started_at, loop_id`,
      );
      for (const r of reader.getRowObjectsJS() as { loop_id: string; train_tasks: string }[])
        sets.push({
          source: `data/recorded-runs/${name} loops.parquet: train_tasks of ${r.loop_id}`,
          tasks: JSON.parse(r.train_tasks) as string[],
        });
    }
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  return `${JSON.stringify({ note: NOTE, sets }, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await pinnedTrainText();
  if (process.argv.includes("--check")) {
    const same = existsSync(FILE) && readFileSync(FILE, "utf8") === text;
    console.log(same ? `${FILE} matches the recordings` : `${FILE} differs: npx tsx scripts/pinned-train.ts`);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(FILE, text);
  console.log(`wrote ${FILE}: ${JSON.parse(text).sets.length} sets`);
}
