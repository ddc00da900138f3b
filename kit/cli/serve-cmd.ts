import type { Command } from "commander";
import { serveDashboard } from "../report/index.js";
import { printableLine } from "../util/index.js";
import { intFlag, PORT_RANGE } from "./numeric-flag.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "A live dashboard of a workspace (tree, best-score curve, current step, nodes per minute, recent nodes), " +
        "read from its live journal while evolve writes it",
    )
    .requiredOption("--workspace <dir>", "the workspace folder")
    .option("--port <n>", "port (0 = any free port)", "8765")
    .option(
      "--host <addr>",
      "address or name to listen on; the page answers only to localhost, 127.x, [::1] and this name",
      "127.0.0.1",
    )
    .action(async (o: { workspace: string; port: string; host: string }) => {
      const port = intFlag("port", o.port, PORT_RANGE);
      const s = await serveDashboard({ workspace: o.workspace, port, host: o.host });
      process.stdout.write(`dashboard of ${printableLine(o.workspace)} at ${printableLine(s.url)} (Ctrl-C stops it)\n`);
      await new Promise<void>((done) => {
        const stop = () => void s.close().then(done);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });
}
