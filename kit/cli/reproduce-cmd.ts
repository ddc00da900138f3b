// `openmle reproduce`: the paper's experiments (kit/reproduce). --list shows the catalogue with laptop costs;
// `<id> --dry-run` prints an experiment's plan (arms × tasks × repeats, programs, cost). Running cells is not built.
import type { Command } from "commander";
import {
  catalogueRows,
  catalogueText,
  experimentById,
  planExperiment,
  planText,
  REPRODUCE_PRESETS,
  type ReproducePreset,
} from "../reproduce/index.js";
import { output, UsageError } from "./run-cli.js";

interface ReproduceFlags {
  list?: boolean;
  preset: string;
  dryRun?: boolean;
  json?: boolean;
}

export function registerReproduce(program: Command): void {
  program
    .command("reproduce")
    .argument("[id]", "an experiment id (openmle reproduce --list shows them)")
    .description(
      "The paper's experiments as specs: --list shows every one with its laptop cost; <id> --dry-run prints the " +
        "plan of one preset (arms × tasks × repeats, programs, estimated minutes or GPU hours). Running the " +
        "cells is not built yet.",
    )
    .option("--list", "list the experiments (id, title, paper item, presets, laptop cost)")
    .option("--preset <name>", `one of ${REPRODUCE_PRESETS.join(", ")}`, "laptop")
    .option("--dry-run", "print the plan and run nothing")
    .option("--json", "machine-readable output")
    .action((id: string | undefined, o: ReproduceFlags) => {
      if (o.list || !id) {
        if (id) throw new UsageError(`pass an experiment id or --list, not both`);
        const rows = catalogueRows();
        return output(!!o.json, rows, () => catalogueText(rows));
      }
      if (!(REPRODUCE_PRESETS as readonly string[]).includes(o.preset))
        throw new UsageError(`--preset ${o.preset}: pass one of ${REPRODUCE_PRESETS.join(", ")}`);
      const spec = experimentById(id);
      const plan = planExperiment(spec, o.preset as ReproducePreset);
      const dry = `openmle reproduce ${id} --preset ${o.preset} --dry-run`;
      if (!o.dryRun) throw new UsageError(`running experiments is not built yet: ${dry} prints the plan`);
      output(!!o.json, plan, () => planText(spec, plan));
    });
}
