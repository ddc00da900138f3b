// data/corpus/pinned-train.json is what the recorded loops give (scripts/pinned-train.ts regenerates it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { pinnedTrainText } from "./pinned-train.js";

test("pinned-train.json is the recorded loops' training tasks, byte for byte", async () => {
  const file = readFileSync(join(import.meta.dirname, "..", "data", "corpus", "pinned-train.json"), "utf8");
  expect(await pinnedTrainText()).toBe(file);
});
