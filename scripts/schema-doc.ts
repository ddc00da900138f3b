// Rewrites the generated section of docs/schema.md (between its schema markers) from the schema's
// descriptions (kit/store/columns/). kit/store/schema-docs.test.ts fails while the section is stale.
// Usage: npx tsx scripts/schema-doc.ts
import { readFileSync, writeFileSync } from "node:fs";
import { SCHEMA_DOC_BEGIN, SCHEMA_DOC_END, SCHEMA_DOCS, schemaMarkdown } from "../kit/store/index.js";

const file = new URL("../docs/schema.md", import.meta.url);
const readme = readFileSync(file, "utf8");
const begin = readme.indexOf(SCHEMA_DOC_BEGIN);
const end = readme.indexOf(SCHEMA_DOC_END);
if (begin < 0 || end < begin) {
  process.stderr.write(`docs/schema.md lacks the markers:\n${SCHEMA_DOC_BEGIN}\n${SCHEMA_DOC_END}\n`);
  process.exit(1);
}
const next = `${readme.slice(0, begin + SCHEMA_DOC_BEGIN.length)}\n${schemaMarkdown(SCHEMA_DOCS)}\n${readme.slice(end)}`;
writeFileSync(file, next);
process.stdout.write(`docs/schema.md: ${SCHEMA_DOCS.length} tables${next === readme ? " (unchanged)" : ""}\n`);
