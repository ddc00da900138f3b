import type { Command } from "commander";
import { createTwoFilesPatch } from "diff";
import { cardTableRow, nodeIdsOfRun, nodeTableRow, type CardTableRow, type NodeTableRow } from "../evo/index.js";
import { executionRow, type ExecutionRow } from "../sandbox/index.js";
import { openWorkspace, readRun, type Workspace } from "../store/index.js";
import { printableLine } from "../util/index.js";
import { formatScore } from "./format.js";
import { output, UsageError } from "./run-cli.js";
import { resolveRunFlag } from "./run-flag.js";

/** Everything stored about one node: its row, its execution record and its experience card. */
export interface NodeDetail {
  readonly runId: string;
  readonly nodeId: string;
  readonly node: NodeTableRow;
  readonly execution: ExecutionRow | null;
  readonly card: CardTableRow | null;
}

async function nodeRow(ws: Workspace, runId: string, nodeId: string): Promise<NodeTableRow> {
  const row = await nodeTableRow(ws, runId, nodeId);
  if (row) return row;
  if (!(await readRun(ws, "runs", runId)))
    throw new UsageError(
      `run "${runId}" is not in workspace ${ws.dir}. List runs with: openmle runs list --workspace ${ws.dir}`,
    );
  const ids = await nodeIdsOfRun(ws, runId);
  const list = ids.length ? ids.join(", ") : "none yet";
  throw new UsageError(`node "${nodeId}" is not in run ${runId} (its nodes: ${list}). Pass one of them to --node.`);
}

/**
 * Load one node with its execution record and card (read-only; never blocks a writer's data). Without
 * `run`, the workspace's only run (resolveRunFlag).
 */
export async function showNode(dir: string, run: string | undefined, nodeId: string): Promise<NodeDetail> {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const runId = await resolveRunFlag(ws, run);
    const node = await nodeRow(ws, runId, nodeId);
    const execution = await executionRow(ws, node.execution_id);
    const card = await cardTableRow(ws, runId, nodeId);
    return { runId, nodeId, node, execution, card };
  } finally {
    ws.close();
  }
}

/** One unified diff of a node's program against another node's (`from` → `to`). */
export interface NodeDiff {
  readonly from: string;
  readonly to: string;
  readonly patch: string;
  readonly added: number;
  readonly removed: number;
}

/**
 * Unified diffs of node `nodeId` against `against` (a node id of the same run, or `run:node` of another
 * run), or against each of its parents when `against` is absent (two diffs for a crossover). Without
 * `run`, the workspace's only run (resolveRunFlag).
 */
export async function diffNode(
  dir: string,
  run: string | undefined,
  nodeId: string,
  against?: string,
): Promise<NodeDiff[]> {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const runId = await resolveRunFlag(ws, run);
    const node = await nodeRow(ws, runId, nodeId);
    let others: { label: string; code: string }[];
    if (against) {
      const [r, n] = against.includes(":") ? (against.split(":", 2) as [string, string]) : [runId, against];
      others = [{ label: r === runId ? n : `${r}:${n}`, code: String((await nodeRow(ws, r, n)).code ?? "") }];
    } else {
      const parents = (node.parents as string[] | null) ?? [];
      if (!parents.length)
        throw new UsageError(
          `node ${nodeId} is a ${String(node.operator)} with no parent: pass --against <node> to ` +
            `diff it with another node`,
        );
      others = [];
      for (const p of parents) others.push({ label: p, code: String((await nodeRow(ws, runId, p)).code ?? "") });
    }
    return others.map((o) => {
      const patch = createTwoFilesPatch(
        `${o.label}/main.py`,
        `${nodeId}/main.py`,
        o.code,
        String(node.code ?? ""),
        "",
        "",
        { context: 3 },
      );
      const lines = patch.split("\n").slice(2);
      return {
        from: o.label,
        to: nodeId,
        patch,
        added: lines.filter((l) => l.startsWith("+") && !l.startsWith("+++")).length,
        removed: lines.filter((l) => l.startsWith("-") && !l.startsWith("---")).length,
      };
    });
  } finally {
    ws.close();
  }
}

/**
 * The human view of `node show`: header, plan, record, card, then the code. Stored fields shown after a
 * label are single-line (printableLine); plan, traceback, output and code keep their lines, their control
 * characters escaped by `output` (kit/util/terminal-safe.ts).
 */
export function renderNode(d: NodeDetail): string {
  const n = d.node,
    e = d.execution,
    c = d.card;
  const score = (v: unknown) => formatScore(typeof v === "number" ? v : null);
  // Times, memory and novelty read at 4 significant digits too (formatNumber's 6 are noise here).
  const num = score;
  const str = (v: unknown) => printableLine(String(v));
  const parents = ((n.parents as string[] | null) ?? []).map(str).join(", ") || "none";
  const out = [
    `node ${str(d.nodeId)} of run ${str(d.runId)}: ${str(n.operator)} (step ${str(n.step)}, generation ` +
      `${str(n.generation)}, parents: ${parents})`,
    `status ${str(n.status)}${n.error_signature ? ` (${str(n.error_signature)})` : ""}, validation ` +
      `${score(n.valid_score)}, hidden test ${score(n.test_score)}, admitted ${n.admitted ? "yes" : "no"}`,
    "",
    "## plan",
    String(n.plan ?? "").trim() || "(none)",
  ];
  if (e) {
    out.push(
      "",
      "## execution record",
      `${str(e.backend)} · ${str(e.status)} · wall ${num(e.wall_s)} s · cpu ` +
        `${num(e.cpu_s)} s · peak memory ${num(e.peak_mem_mb)} MB`,
    );
    if (e.traceback) out.push("traceback:", String(e.traceback).trimEnd());
    if (e.stdout_tail) out.push("stdout (tail):", String(e.stdout_tail).trimEnd());
  }
  if (c) {
    out.push(
      "",
      "## experience card",
      `family ${str(c.method_family)} (explored ${str(c.family_explored ?? "—")}), imports ` +
        `${((c.imports as string[] | null) ?? []).map(str).join(", ") || "—"}`,
      `delta vs parent ${score(c.delta_vs_parent)}, novelty ${num(c.novelty)}, rank ` +
        `${str(c.rank ?? "—")}, champion when written ${c.champion_at_write ? "yes" : "no"}`,
    );
  }
  out.push("", "## code", String(n.code ?? "").trimEnd() || "(no code)");
  return out.join("\n");
}

export function registerNode(program: Command): void {
  const node = program
    .command("node")
    .description("Look at one node of a run: its plan, code, record and card, or a diff");
  const common = (c: Command) =>
    c
      .requiredOption("--workspace <dir>", "workspace folder")
      .option("--run <id>", "run id (openmle runs list; default: the workspace's only run)")
      .requiredOption("--node <id>", "node id, e.g. n0003");
  common(node.command("show").description("Plan, code, execution record and experience card of a node"))
    .option("--json", "machine-readable output (snake_case keys)")
    .action(async (o: { workspace: string; run?: string; node: string; json?: boolean }) => {
      const d = await showNode(o.workspace, o.run, o.node);
      output(!!o.json, d, () => renderNode(d));
    });
  common(
    node
      .command("diff")
      .description("Unified diff of a node's program against its parent(s) or --against another node"),
  )
    .option("--against <node>", "another node of the run, or <run>:<node> of another run (default: the node's parents)")
    .option("--json", "machine-readable output")
    .action(async (o: { workspace: string; run?: string; node: string; against?: string; json?: boolean }) => {
      const diffs = await diffNode(o.workspace, o.run, o.node, o.against);
      output(!!o.json, diffs, () =>
        diffs
          .map(
            (d) => `# ${printableLine(d.from)} → ${printableLine(d.to)}: +${d.added} −${d.removed} lines\n${d.patch}`,
          )
          .join("\n"),
      );
    });
}
