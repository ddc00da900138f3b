// Validation–test gap of held-out champions, one loop (or re-evaluation) against another (issue 14, point 14).
// Reads the stored held-out rows (loop_heldout: champion validation and hidden test scores, the loop's
// baselines) and measures each with kit/report's validationGap in normalised-score units
// (> 0: validation promised more than the hidden test gave; large when > 0.1).
//   npx tsx bench/erl/gap.ts --workspace workspaces/bench-loop --loops bench-7ddeb468,bench-7ddeb468-re1
import { validationGap } from "../../kit/report/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const ws = await openWorkspace(arg("workspace", "workspaces/bench-loop"));
const loops = arg("loops", "").split(",").filter(Boolean);
if (loops.length === 0) throw new Error("--loops: give one or more loop ids, comma-separated (see `openmle loop --list`)");
type Row = { loop_id: string; task_id: string; valid_score: number | null; test_score: number | null; trivial: number | null; reference: number | null; hib: boolean };
try {
  const rows = await ws.query<Row>(
    `SELECT h.loop_id, h.task_id, h.valid_score, h.test_score, h.trivial, h.reference, t.higher_is_better AS hib
     FROM loop_heldout h JOIN tasks t USING (task_id) WHERE list_contains(string_split($loops, ','), h.loop_id) ORDER BY h.task_id`,
    { loops: loops.join(",") });
  const f = (x: number) => (x >= 0 ? " " : "") + x.toFixed(3);
  const lines = ["| task | loop | champions | gap mean | gap max | large (> 0.1) |", "|---|---|---|---|---|---|"];
  const summary = (rs: Row[]) => {
    const gaps = rs.map((r) => validationGap(r.valid_score, r.test_score, r.hib,
      r.trivial !== null && r.reference !== null ? { baselines: { trivial: r.trivial, reference: r.reference } } : {})).filter((g): g is NonNullable<typeof g> => g !== null);
    const rel = gaps.map((g) => g.relative);
    return rel.length ? `${rel.length} | ${f(rel.reduce((s, x) => s + x, 0) / rel.length)} | ${f(Math.max(...rel))} | ${gaps.filter((g) => g.large).length}` : "0 | — | — | —";
  };
  for (const task of [...new Set(rows.map((r) => r.task_id))]) for (const l of loops) lines.push(`| ${task} | ${l} | ${summary(rows.filter((r) => r.task_id === task && r.loop_id === l))} |`);
  for (const l of loops) lines.push(`| **all** | ${l} | ${summary(rows.filter((r) => r.loop_id === l))} |`);
  console.log(lines.join("\n"));
} finally {
  ws.close();
}
