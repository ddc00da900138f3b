import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
// @ts-expect-error: plain ESM script without types
import { unquotedNumbers } from "./notebook-numbers.mjs";

type Miss = { cell: number; number: string; sentence: string };
const find = unquotedNumbers as (nb: unknown) => Miss[];
const nb = (markdown: string, output: string, code = "") => ({
  cells: [
    { cell_type: "code", source: [code], outputs: [{ output_type: "display_data", data: { "text/html": [output] } }] },
    { cell_type: "markdown", source: [markdown] },
  ],
});

describe("unquotedNumbers: the rule, case by case", () => {
  test.each([
    ["an output rounded to the text's precision", "The champion gains 0.61 RMSE.", "<td>0.6074</td>", []],
    ["a signed interval (− and + signs)", "Win +0.052 [−0.001, +0.098].", "0.0521 [-0.0011, 0.0978]", []],
    ["a percentage of a fraction", "It wins 56.8 % of the time.", "0.5681", []],
    ["thousands separators", "It kept 1,234.5 of them.", "1,234.49", []],
    ["e-notation", "KL 9.4e-2 nats.", "9.43e-2", []],
    ["a setting of the code cells", "At lr 0.5 it moves.", "nothing", [], "sftTrain({ lr: 0.5 })"],
    ["marked as derived", "A probability of about 0.55.", "0.052", []],
    ["cited", "Unclipped, the rows read 3.90 (bench/reproduce).", "1.4", []],
    ["a code span cites but its digits are not numbers", "Drafts differ by 0.44 (`bench/notebooks/README.md`, `v1.2`).", "x", []],
    ["an address is no number", "A server on 127.0.0.1 answers.", "x", []],
    ["a stale figure", "The champion gains 0.71 RMSE.", "<td>0.6074</td>", ["0.71"]],
    ["rounded the wrong way", "It gains 0.60.", "0.6074", ["0.60"]],
  ] as [string, string, string, string[], string?][])("%s", (_, md, out, want, code) => {
    expect(find(nb(md, out, code)).map((m) => m.number)).toEqual(want);
  });
});

describe("the committed notebooks", () => {
  const dir = join(import.meta.dirname, "..", "notebooks");
  test.each(readdirSync(dir).filter((f) => f.endsWith(".ipynb")).sort())(
    "%s: every number its text states is one of its outputs (or a setting, a derivation, a citation)",
    (f) => {
      const misses = find(JSON.parse(readFileSync(join(dir, f), "utf8")));
      expect(misses.map((m) => `cell ${m.cell}: ${m.number} in "${m.sentence.slice(0, 160)}"`)).toEqual([]);
    },
  );
});
