// `openmle reproduce <id> --registered EXP --workspace DIR`: an experiment's table from a registration's results
// (kit/experiment) instead of the kit's own cells: nothing runs, the read is a logged look, and the rows' source is
// the results' label ("registered <id>", "exploratory", or a re-run's).
import {
  provenance,
  registeredTable,
  tableMarkdown,
  writeExperiment,
  writeExperimentFigure,
  writeExperimentPng,
  type ExperimentSpec,
} from "../reproduce/index.js";
import { resolveExperimentId } from "../experiment/index.js";
import { withCommandWorkspace } from "./command-workspace.js";
import { output, UsageError } from "./run-cli.js";

export interface RegisteredFlags {
  readonly registered: string;
  readonly workspace?: string;
  readonly preset: string;
  readonly dryRun?: boolean;
  readonly loop?: string;
  readonly recordedLoop?: string;
  readonly arms?: string;
  readonly endpoint: readonly string[];
  readonly out?: string;
  readonly png?: boolean;
  readonly json?: boolean;
}

/** The flags that choose or run the kit's own cells mean nothing with --registered: each is refused by name. */
export function checkRegisteredFlags(o: RegisteredFlags): void {
  const clash = [
    o.dryRun && "--dry-run",
    o.loop && "--loop",
    o.recordedLoop && "--recorded-loop",
    o.arms && "--arms",
    o.endpoint.length && "--endpoint",
    o.preset !== "laptop" && "--preset",
  ].filter(Boolean);
  if (clash.length)
    throw new UsageError(
      `--registered reads a registration's stored plan and results: drop ${clash.join(", ")} ` +
        "(the plan fixes arms, tasks and seeds)",
    );
  if (!o.workspace)
    throw new UsageError(`--registered ${o.registered}: pass --workspace DIR, the workspace holding the registration`);
}

/** Reads and prints (or writes with --out) `spec`'s table from registration `o.registered`. */
export async function reproduceRegistered(spec: ExperimentSpec, o: RegisteredFlags): Promise<void> {
  await withCommandWorkspace(o.workspace!, async (ws) => {
    const t0 = Date.now();
    const command = `reproduce ${spec.id} --registered ${o.registered}`;
    const { registrationId, runId } = await resolveExperimentId(ws, o.registered); // an id, or a run id <id>-rN
    const t = await registeredTable(ws, spec, registrationId, runId ? { runId, command } : { command });
    const run = t.results.run!;
    const ranS = run.finishedAt ? (run.finishedAt.getTime() - run.startedAt.getTime()) / 1000 : null;
    const p = {
      ...provenance(t.owner, t.preset, (Date.now() - t0) / 1000, new Date(), ranS, null),
      commit: run.kitCommit.slice(0, 12),
    };
    const written = o.out ? writeExperiment(o.out, t.spec, t.preset, t.rows, p) : null;
    const png = o.png !== false;
    const table = written && png ? { ...written, png: await writeExperimentPng(written.html) } : written;
    const fig = o.out && t.figure ? await writeExperimentFigure(o.out, t.figure, { png }) : null;
    const files = table && fig ? { ...table, figure: fig.html, ...(fig.png ? { figurePng: fig.png } : {}) } : table;
    const reg = t.results.registration;
    output(
      !!o.json,
      { id: spec.id, registration: reg.registrationId, label: t.results.label, rows: t.rows, files },
      () =>
        [
          tableMarkdown(t.rows),
          "",
          `${t.results.label}: run ${run.runId} at kit ${run.kitCommit.slice(0, 12)}` +
            (ranS === null ? "" : `, ${(ranS / 60).toFixed(1)} min`) +
            `; plan ${reg.planHash.slice(0, 12)} registered ${reg.registeredAt.toISOString().slice(0, 16)}Z`,
          reg.powerLine,
          ...(files ? [`wrote ${Object.values(files).join(", ")}`] : []),
        ].join("\n"),
    );
  });
}
