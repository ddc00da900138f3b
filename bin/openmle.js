#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (scripts/setup.sh does it).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../dist/kit/cli/main.js", import.meta.url));
if (!existsSync(main)) {
  console.error("openmle: the kit is not built yet. Run `npm run build` (or scripts/setup.sh) in the project root.");
  process.exit(2);
}
await import(main);
