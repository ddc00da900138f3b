// Regenerate data/corpus/candidates.json (issue 27): enumerate the installed sources in the jail (R data
// packages, statsmodels, sklearn, npm, Debian), merge data/corpus/hints.json, sort by id, validate, write.
//   npx tsx scripts/corpus-manifest.ts [--out path]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildManifest, listSources, modalityGuess, type ManifestHints } from "../kit/gym/corpus/sources.js";
import { defaultManifestPath, manifestHash } from "../kit/gym/corpus/manifest.js";
import { projectRoot } from "../kit/gym/python.js";

const outIdx = process.argv.indexOf("--out");
const out = outIdx > 0 ? process.argv[outIdx + 1]! : defaultManifestPath();
const hints = JSON.parse(readFileSync(join(projectRoot(), "data", "corpus", "hints.json"), "utf8")) as ManifestHints;

const t0 = Date.now();
const listing = await listSources();
const cands = buildManifest(listing, hints);
writeFileSync(out, JSON.stringify(cands, null, 2) + "\n");

const count = (key: (c: (typeof cands)[number]) => string) => {
  const m: Record<string, number> = {};
  for (const c of cands) m[key(c)] = (m[key(c)] ?? 0) + 1;
  return m;
};
console.log(`${cands.length} candidates -> ${out} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
console.log("sha256", manifestHash(cands));
console.log(
  "per source",
  count((c) => c.source),
);
console.log(
  "per package",
  count((c) => c.package),
);
console.log(
  "per modality (guess)",
  count((c) => modalityGuess(c, listing)),
);
console.log("distinct studies", new Set(cands.map((c) => c.study ?? c.id)).size);
