#!/usr/bin/env node
// The `openmle` CLI: the command tree of program.ts, run with one-line errors (run-cli.ts).
import { buildProgram } from "./program.js";
import { runCli } from "./run-cli.js";

await runCli(buildProgram(), process.argv);
