import type { Command } from "commander";
import { z } from "zod";
import { CONFIG_SCHEMAS } from "./config-registry.js";
import { UsageError } from "./run-cli.js";

export function registerConfig(program: Command): void {
  const config = program.command("config").description("Inspect the kit's configuration schemas");
  config
    .command("schema [name]")
    .description(`Print the JSON Schema of the configs (${Object.keys(CONFIG_SCHEMAS).join(", ")}) or of one of them`)
    .action((name?: string) => {
      const schemas = CONFIG_SCHEMAS as Record<string, z.ZodType>;
      if (name && !(name in schemas)) {
        throw new UsageError(`unknown config "${name}". Known: ${Object.keys(schemas).join(", ")}.`);
      }
      const pick = name ? { [name]: schemas[name]! } : schemas;
      const out = Object.fromEntries(Object.entries(pick).map(([k, s]) => [k, z.toJSONSchema(s, { io: "input" })]));
      process.stdout.write(`${JSON.stringify(name ? out[name] : out, null, 2)}\n`);
    });
}
