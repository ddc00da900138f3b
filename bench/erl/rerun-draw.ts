// Is one held-out draw's grade a function of its program? Renders the draw again from its draw seed (kit/erl
// replayHeldoutDrafts: loop LOOP's held-out seed, checkpoint CKPT, task and draw index) and grades it here N times
// per setting: on the cold local executor and on the warm one, under each OpenBLAS core type given (`""`: OpenBLAS's
// own choice on this host). Prints the distinct grades with how often each came, per setting.
//   npx tsx bench/erl/rerun-draw.ts --workspace W --loop learn-00aa07fb --checkpoint uniform \
//     --task npm-vega-flights-20k-distance --draft 3 --times 3 --types ",Haswell"
import { resolveTask } from "../../kit/gym/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { runSandbox, WarmExecutor } from "../../kit/sandbox/index.js";
import { openWorkspace } from "../../kit/store/index.js";
import { renderDraws } from "./rows.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const ws = arg("recorded", "") ? await openRecordedRuns(arg("recorded", "")) : await openWorkspace(arg("workspace", ""), { readOnly: true });
const [taskId, draft, ckpt] = [arg("task", ""), Number(arg("draft", "0")), arg("checkpoint", "uniform")];
if (!arg("loop", "") || !taskId) throw new Error("pass --workspace W (or --recorded NAME), --loop ID, --task ID and --draft I");
const task = await resolveTask(taskId);
const [g] = await renderDraws(ws, arg("loop", ""), [{ taskId, draft, checkpoint: ckpt }], [task]);
ws.close();
const times = Number(arg("times", "3"));
const warm = new WarmExecutor();
try {
  console.log(`${taskId} draft ${draft} of ${ckpt} (loop ${arg("loop", "")}), ${times} runs per setting\n`);
  console.log("| executor | OpenBLAS core type | grades (count) |\n|---|---|---|");
  for (const type of arg("types", ",Haswell").split(","))
    for (const [name, executor] of [["cold", undefined], ["warm", warm]] as const) {
      const seen = new Map<string, number>();
      for (let i = 0; i < times; i++) {
        const r = await runSandbox({ task, code: g!.code!, executor, env: { OPENBLAS_CORETYPE: type } });
        const k = r.status === "success" ? String(r.testScore) : r.status;
        seen.set(k, (seen.get(k) ?? 0) + 1);
      }
      console.log(`| ${name} | ${type || "own choice"} | ${[...seen].map(([k, n]) => `${k} (${n})`).join(", ")} |`);
    }
} finally {
  await warm.close();
}
