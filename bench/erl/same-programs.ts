// Which paired draws of two row sets are the same program, and do those grade the same (issue 30, the eleventh run's
// addendum: rows graded on two machines)? Each side is FOLDER:LOOP:ROWS:GEN (a recorded run of data/recorded-runs, or a
// workspace folder; the loop whose held-out draw seed drew the rows; the row set and generation). Every draw both sides
// hold (same task, same draw index) is rendered again from its side's draw seed under its side's checkpoint
// (kit/erl replayHeldoutDrafts; nothing is executed) and the pair is counted as the same program or not; same programs
// are compared by status and graded score (equal, equal at 6 significant digits, or different), with the largest
// relative difference and the tasks concerned. A comparison of the two sides (versus.ts) counts a same-program pair
// with a different grade as a win or a loss; rounded (versus.ts --round 6) only those that differ beyond 6 digits.
//   npx tsx bench/erl/same-programs.ts --a learning-armA60f:learn-00aa07fb:learn-00aa07fb-d32h85:1 \
//     --b learning-armA60u:learn-18627e2b:learn-18627e2b-d32h85:1
import { loadHeldoutDrafts, loopConfig, type HeldoutDraftRow } from "../../kit/erl/index.js";
import { storedTaskPackages } from "../../kit/gym/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { openWorkspace, type Workspace } from "../../kit/store/index.js";
import { relativeGap, renderDraws } from "./rows.js";

const arg = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : ""; };
const open = (f: string) => (/[/.]/.test(f) ? openWorkspace(f, { readOnly: true }) : openRecordedRuns(f));

interface Side { readonly spec: string; readonly ws: Workspace; readonly loop: string; readonly rows: HeldoutDraftRow[] }
async function load(spec: string): Promise<Side> {
  const [folder, loop, rows, gen] = spec.split(":");
  if (!folder || !loop || !rows || !gen) throw new Error(`${spec}: pass FOLDER:LOOP:ROWS:GEN`);
  const ws = await open(folder);
  if (!(await loopConfig(ws, loop))) throw new Error(`no loop "${loop}" in ${folder}`);
  const got = await loadHeldoutDrafts(ws, rows, Number(gen));
  if (!got.length) throw new Error(`no rows ${rows}:${gen} in ${folder}`);
  return { spec, ws, loop, rows: got };
}
/** The spec hash of each row's program, keyed task#draft. */
async function hashes(s: Side, keys: ReadonlySet<string>): Promise<Map<string, string>> {
  const rows = s.rows.filter((r) => keys.has(`${r.taskId}#${r.draft}`));
  const replayed = await renderDraws(s.ws, s.loop, rows, await storedTaskPackages(s.ws, [...new Set(rows.map((r) => r.taskId))]));
  return new Map(replayed.map((d) => [`${d.taskId}#${d.draft}`, d.specHash]));
}

const [a, b] = [await load(arg("a")), await load(arg("b"))];
try {
  const key = (r: HeldoutDraftRow) => `${r.taskId}#${r.draft}`;
  const bm = new Map(b.rows.map((r) => [key(r), r]));
  const keys = new Set(a.rows.map(key).filter((k) => bm.has(k)));
  const [ha, hb] = [await hashes(a, keys), await hashes(b, keys)];
  let same = 0, equal = 0, at6 = 0, largest = 0;
  const differ = new Map<string, number>();
  for (const ra of a.rows.filter((r) => keys.has(key(r)))) {
    const rb = bm.get(key(ra))!;
    if (ha.get(key(ra)) !== hb.get(key(ra))) continue;
    same += 1;
    if (ra.status === rb.status && ra.testScore === rb.testScore) { equal += 1; continue; }
    const gap = ra.status === rb.status ? relativeGap(ra.testScore, rb.testScore) : Infinity;
    const rounded = (x: number | null) => (x === null ? null : x.toPrecision(6));
    if (ra.status === rb.status && rounded(ra.testScore) === rounded(rb.testScore)) at6 += 1;
    else differ.set(ra.taskId, (differ.get(ra.taskId) ?? 0) + 1);
    largest = Math.max(largest, gap);
  }
  const n = [...differ.values()].reduce((x, y) => x + y, 0);
  console.log(`${a.spec} against ${b.spec}: ${keys.size} paired draws, ${same} the same program on both sides`);
  console.log(`  same program, same status and grade: ${equal}; equal at 6 significant digits only: ${at6}; ` +
    `different beyond that: ${n} (largest relative difference ${largest.toExponential(1)})`);
  if (n) console.log(`  different beyond 6 digits, by task: ${[...differ].map(([t, k]) => `${t} ${k}`).join(", ")}`);
} finally {
  a.ws.close();
  b.ws.close();
}
