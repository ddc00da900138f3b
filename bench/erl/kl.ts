// How far one checkpoint moved from another: mean KL(p_a ‖ p_b) in nats per decision over a's fresh drafts of a loop's
// held-out tasks (4 drafts per task, seed 1: learning.ts's measure, for checkpoints its table does not reach yet).
//   npx tsx bench/erl/kl.ts --workspace W --loop learn-00aa07fb --pair learn-00aa07fb-g1,learn-00aa07fb-g2
import { draftProbes, loopTaskSets, policyKl, resolvePolicyParams } from "../../kit/erl/index.js";
import { resolveTask } from "../../kit/gym/index.js";
import { openRecordedRuns } from "../../kit/report/index.js";
import { openWorkspace } from "../../kit/store/index.js";

const arg = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : ""; };
const pairs = process.argv.flatMap((a, i) => (a === "--pair" ? [process.argv[i + 1]!] : []));
const ws = arg("recorded") ? await openRecordedRuns(arg("recorded")) : await openWorkspace(arg("workspace"), { readOnly: true });
try {
  const sets = await loopTaskSets(ws, arg("loop"));
  if (!sets || !pairs.length) throw new Error("pass --workspace W (or --recorded NAME), --loop ID and --pair A,B");
  const tasks = await Promise.all(sets.heldout.map((t) => resolveTask(t)));
  console.log("| step | mean KL (nats per decision) | probes |\n|---|---|---|");
  for (const pair of pairs) {
    const [x, y] = pair.split(",") as [string, string];
    const [a, b] = [(await resolvePolicyParams(x, ws)).params, (await resolvePolicyParams(y, ws)).params];
    const kl = policyKl(a, b, (await draftProbes(a, tasks, { drafts: 4, seed: 1 })).probes);
    console.log(`| ${x} → ${y} | ${kl.meanKl.toExponential(3)} | ${kl.probes} |`);
  }
} finally {
  ws.close();
}
