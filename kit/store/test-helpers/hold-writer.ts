// Child process for the second-writer test: opens a workspace for writing, says "ready", waits.
import { openWorkspace } from "../index.js";

const ws = await openWorkspace(process.argv[2]!);
process.stdout.write("ready\n");
process.stdin.on("data", () => {
  ws.close();
  process.exit(0);
});
