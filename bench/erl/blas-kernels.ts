// Why the same programs graded differently on two machines (issue 30, the eleventh run's addendum): the reference
// baseline (a Ridge or logistic fit) of each task, run here in the sandbox under several OpenBLAS core types, against
// the baselines a recorded run stored on its own machine. A core type that reproduces them exactly, where this host's
// own choice does not, names the cause: OpenBLAS's kernel choice by CPU. The trivial baselines (a mean or a mode, no
// BLAS) are compared too: equal ones say the data are the same on both machines.
//   npx tsx bench/erl/blas-kernels.ts --recorded learning-armA60u --baselines learn-18627e2b-d32h85 --heldout-count 20
// (`""` is OpenBLAS's own choice on this host, i.e. no pin; the kit pins Haswell on x86-64 hosts with AVX2 and FMA.)
import { loopBaselines } from "../../kit/erl/index.js";
import { baselineProgram } from "../../kit/eval/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { hostBlasCoreType } from "../../kit/jail/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { runSandbox } from "../../kit/sandbox/index.js";
import { benchTasks } from "../task-list.js";

const arg = (name: string, d: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : d; };
const types = arg("types", ",Haswell,Zen,SkylakeX,Cooperlake,Sandybridge").split(",");
const rec = await openRecordedRuns(arg("recorded", "learning-armA60u"));
const stored = await loopBaselines(rec, arg("baselines", "learn-18627e2b-d32h85"));
rec.close();
const ids = [...(await benchTasks("suite:dev"))].sort().slice(0, Number(arg("heldout-count", "20"))).filter((t) => stored[t]);
const name = (t: string) => (t === "" ? "own choice" : t);
console.log(`${ids.length} tasks with stored baselines; this host pins ${hostBlasCoreType() ?? "nothing"}\n`);
console.log(`| task | trivial = stored | ${types.map((t) => `reference, ${name(t)}`).join(" | ")} |`);
console.log(`|---|---|${types.map(() => "---").join("|")}|`);
const same = new Map(types.map((t) => [t, 0]));
let trivialSame = 0;
for (const id of ids) {
  const task = await resolveTask(id);
  const want = stored[id]!;
  const trivial = await runSandbox({ task, code: baselineProgram(task, "trivial"), env: { OPENBLAS_CORETYPE: "" } });
  if (trivial.testScore === want.trivial) trivialSame += 1;
  const cells: string[] = [];
  for (const t of types) {
    const r = await runSandbox({ task, code: baselineProgram(task, "reference"), env: { OPENBLAS_CORETYPE: t } });
    const eq = r.testScore === want.reference;
    if (eq) same.set(t, same.get(t)! + 1);
    cells.push(eq ? "= stored" : r.testScore === null ? "failed" : `${(r.testScore / want.reference! - 1).toExponential(1)}`);
  }
  console.log(`| ${id} | ${trivial.testScore === want.trivial ? "yes" : "no"} | ${cells.join(" | ")} |`);
}
console.log(`\ntrivial baselines equal to the stored ones: ${trivialSame} of ${ids.length}`);
console.log(`reference baselines equal to the stored ones: ${types.map((t) => `${name(t)} ${same.get(t)}`).join(", ")} (of ${ids.length})`);
