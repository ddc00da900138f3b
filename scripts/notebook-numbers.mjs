// Does a notebook's text quote its own outputs correctly? (issue 61: "text and tables agree".)
//
// Every decimal number in a notebook's Markdown cells (code spans, fenced blocks and dotted addresses left out) must be
//   1. an output's number of the same notebook rounded to the text's precision (×100 when the text writes it as a
//      percentage; in the text's e-notation when it uses one), or
//   2. a number the notebook's code cells write (a setting the cells pass, e.g. `lr: 0.5`), or
//   3. marked as derived or approximate: "about 0.55", "≈ 0.55", "~0.55", or
//   4. cited: its sentence names where it comes from outside this notebook (a `bench/`, `docs/`, `data/` or `kit/`
//      path, a `runs/` record, "notebook NN", "the paper"/"the paper's"/"paper:").
// Anything else is a number the text states that no output shows: a stale figure, a typo, or a missing citation.
// `node scripts/notebook-numbers.mjs [names]` lists them; scripts/notebook-numbers.test.ts requires none.
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";

const join_ = (s) => (Array.isArray(s) ? s.join("") : (s ?? ""));
const decode = (s) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

/** The text of every output of a notebook's code cells (HTML without tags, scripts and images), one string. */
export function outputText(nb) {
  const parts = [];
  for (const c of nb.cells) {
    if (c.cell_type !== "code") continue;
    for (const o of c.outputs ?? []) {
      if (o.text) parts.push(join_(o.text));
      const d = o.data ?? {};
      if (d["text/html"]) {
        const h = join_(d["text/html"]).replace(/<script[\s\S]*?<\/script>/g, " ").replace(/<img[^>]*>/g, " ");
        parts.push(decode(h.replace(/<[^>]+>/g, " ")));
      } else if (d["text/plain"]) parts.push(join_(d["text/plain"]));
    }
  }
  return parts.join(" ").replace(/−/g, "-").replace(/(\d),(?=\d{3}\b)/g, "$1");
}

const NUMBER = /\d+(?:\.\d+)?(?:e[-+]?\d+)?/g;
const CITED = /bench\/|docs\/|data\/|kit\/|runs\/|notebook \d\d|the paper\b|paper's|paper:/i;
const MARKED = /(?:about|≈|~)\s*$/;

/** The text's precision: decimals of a plain number, of the mantissa in e-notation. */
function formatLike(text, y) {
  const [mant, exp] = text.split("e");
  const d = (mant.split(".")[1] ?? "").length;
  if (exp === undefined) return y.toFixed(d);
  return y.toExponential(d).replace("e+", "e").replace(/e-0*(\d)/, "e-$1");
}

/** The sentences of a Markdown paragraph (decimal points and e.g. "Fig." do not end one). */
function sentences(text) {
  return text.split(/(?<=[.!?])\s+(?=[A-Z*(])/);
}

/**
 * The numbers of `nb`'s Markdown that break the rule above: `{ cell, number, sentence }`. `code` numbers: every
 * number literal of the code cells' sources.
 */
export function unquotedNumbers(nb) {
  const outputs = [...outputText(nb).matchAll(NUMBER)].map((m) => Number(m[0]));
  const code = new Set(
    nb.cells.filter((c) => c.cell_type === "code").flatMap((c) => [...join_(c.source).matchAll(NUMBER)].map((m) => m[0])),
  );
  const misses = [];
  nb.cells.forEach((c, cell) => {
    if (c.cell_type !== "markdown") return;
    // Fenced blocks out; code spans keep their text for citations (`bench/notebooks/README.md`), not their digits.
    const md = join_(c.source)
      .replace(/```[\s\S]*?```/g, " ")
      .replace(/`([^`\n]*)`/g, (_, t) => t.replace(/\d/g, "#"));
    for (const s of sentences(md)) {
      for (const m of s.matchAll(/(\d[\d,]*\.\d+(?:e-\d+)?)(\s?%)?/g)) {
        const before = s.slice(0, m.index);
        const after = s.slice(m.index + m[0].length);
        if (/\d\.$/.test(before) || /^\.\d/.test(after)) continue; // a dotted address (127.0.0.1), a version
        const text = m[1].replace(/,/g, "");
        const ok =
          outputs.some((y) => formatLike(text, y) === text || (m[2] && formatLike(text, 100 * y) === text)) ||
          code.has(text) ||
          MARKED.test(before) ||
          CITED.test(s);
        if (!ok) misses.push({ cell, number: m[1], sentence: s.replace(/\s+/g, " ").trim() });
      }
    }
  });
  return misses;
}

if (process.argv[1] && basename(process.argv[1]) === "notebook-numbers.mjs") {
  const dir = join(import.meta.dirname, "..", "notebooks");
  const names = process.argv.slice(2);
  let n = 0;
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".ipynb")).sort()) {
    if (names.length && !names.some((x) => f.startsWith(x))) continue;
    for (const m of unquotedNumbers(JSON.parse(readFileSync(join(dir, f), "utf8")))) {
      n++;
      console.log(`${f} cell ${m.cell}: ${m.number} in "${m.sentence.slice(0, 200)}"`);
    }
  }
  console.log(n ? `${n} numbers the text states that no output shows` : "every number the text states is an output's");
  process.exitCode = n ? 1 : 0;
}
