// `openmle task build-corpus`: the gym corpus through the funnel (kit/gym/corpus/build-corpus.ts).
import type { Command } from "commander";
import { buildCorpus, corpusPaths, funnelTable, funnelText, type CorpusEvent } from "../gym/index.js";
import { createOpenAIModel } from "../llm/index.js";
import { intFlag } from "./numeric-flag.js";
import { output } from "./run-cli.js";
import { printableLine } from "../util/index.js";

/**
 * Progress on stderr: on a terminal a one-line bar (candidates done, tasks accepted, candidates per minute); off a
 * terminal one line per candidate: `candidate r-mass-boston done (12 of 250), 7 tasks accepted, 4.1 s`. A candidate
 * id is the manifest's: shown with printableLine.
 */
export function corpusProgress(
  mode: "bar" | "lines" | "off",
  write: (s: string) => void = (s) => void process.stderr.write(s),
  now: () => number = Date.now,
): (e: CorpusEvent) => void {
  let t0 = now();
  return (e) => {
    if (mode === "off") return;
    if (e.type === "start") {
      t0 = now();
      write(`corpus build ${printableLine(e.buildId)}: ${e.candidates} candidates\n`);
    }
    if (e.type === "candidate" && mode === "lines")
      write(
        `candidate ${printableLine(e.candidate)} done (${e.done} of ${e.total})${e.cached ? " from the cache" : ""}, ` +
          `${e.accepted} tasks accepted, ${(e.ms / 1000).toFixed(1)} s\n`,
      );
    if (e.type === "candidate" && mode === "bar") {
      const w = 30;
      const fill = Math.round((w * e.done) / e.total);
      const perMin = e.done / Math.max((now() - t0) / 60_000, 1e-9);
      write(
        `\r[${"#".repeat(fill)}${".".repeat(w - fill)}] ${e.done}/${e.total} candidates, ${e.accepted} accepted, ` +
          `${perMin.toFixed(1)}/min `,
      );
    }
    if (e.type === "done" && mode === "bar") write("\n");
  };
}

export function registerCorpusBuild(task: Command): void {
  task
    .command("build-corpus")
    .description(
      "Build the gym corpus from the candidate manifest through the funnel (export, framing, package build and " +
        "metric verification, quality checks, headroom, semantic gate); unchanged candidates come from the cache",
    )
    .option("--dir <dir>", "the corpus folder (default $OPENMLE_CACHE/corpus or .cache/corpus)")
    .option("--only <ids>", "comma-separated candidate ids (a sample; the corpus index is left as it is)")
    .option("--jobs <n>", "candidates processed at once", "2")
    .option("--rebuild", "redo every stage, ignoring cached results")
    .option("--determinism", "also re-run prepare.py twice per task (the prepare_deterministic check; slower)")
    .option("--gate", "run the semantic gate through an OpenAI-compatible endpoint (else it is recorded as skipped)")
    .option("--base-url <url>", "chat-completions base URL for --gate", "http://127.0.0.1:8000/v1")
    .option("--model <id>", "model id for --gate", "Qwen/Qwen3-8B")
    .option("--json", "machine-readable output: the funnel table")
    .action(
      async (o: {
        dir?: string;
        only?: string;
        jobs: string;
        rebuild?: boolean;
        determinism?: boolean;
        gate?: boolean;
        baseUrl: string;
        model: string;
        json?: boolean;
      }) => {
        const jobs = intFlag("jobs", o.jobs, { min: 1, max: 32 });
        const only = o.only
          ?.split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const mode = o.json ? "off" : process.stderr.isTTY ? "bar" : "lines";
        const s = await buildCorpus({
          ...(o.dir ? { dir: o.dir } : {}),
          config: { jobs, determinism: !!o.determinism, rebuild: !!o.rebuild, ...(only ? { only } : {}) },
          ...(o.gate ? { model: createOpenAIModel({ baseURL: o.baseUrl, model: o.model }) } : {}),
          onEvent: corpusProgress(mode),
        });
        const table = funnelTable(s.records, s.index.tasks);
        const where = corpusPaths(o.dir);
        output(!!o.json, { build_id: s.buildId, wall_s: s.wallS, cached_candidates: s.cached, funnel: table }, () =>
          [
            funnelText(table, s.buildId),
            "",
            `build ${s.buildId}: ${s.candidates} candidates (${s.cached} from the cache) in ` +
              `${s.wallS.toFixed(0)} s; packages under ${where.tasks}` +
              (only ? "; a sample: the corpus index was not changed" : `; index ${where.index}`),
          ].join("\n"),
        );
      },
    );
}
