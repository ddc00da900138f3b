import { stratify, tree } from "d3-hierarchy";

/** A node as the tree layout needs it: its id, its parents (first = the one it descends from), its step. */
export interface LayoutInput {
  readonly nodeId: string;
  readonly parents: readonly string[];
  readonly step: number;
}

export interface TreeLayout {
  /** Position per node: x across (tidy), y = depth below the virtual root (drafts at depth 1). */
  readonly pos: ReadonlyMap<string, { readonly x: number; readonly y: number }>;
  /** Tree edges: first parent → child. */
  readonly edges: readonly (readonly [string, string])[];
  /** Crossover edges: every further parent → child (drawn distinctly). */
  readonly crossEdges: readonly (readonly [string, string])[];
}

const ROOT = "\u0000root";

/**
 * The tidy tree layout (Reingold–Tilford, d3-hierarchy's `tree`) of a search: each node hangs under
 * its first parent (drafts and nodes whose parents are not in the run hang under a virtual root),
 * siblings in step order; further parents (crossover) become extra edges. Node size 1 × 1.
 */
export function treeLayout(nodes: readonly LayoutInput[]): TreeLayout {
  const ids = new Set(nodes.map((n) => n.nodeId));
  const primary = (n: LayoutInput) => n.parents.find((p) => ids.has(p) && p !== n.nodeId) ?? ROOT;
  const rows = [
    { id: ROOT, parentId: null as string | null, step: -1 },
    ...[...nodes].sort((a, b) => a.step - b.step).map((n) => ({ id: n.nodeId, parentId: primary(n), step: n.step })),
  ];
  const root = stratify<(typeof rows)[number]>()
    .id((d) => d.id)
    .parentId((d) => d.parentId)(rows);
  root.sort((a, b) => a.data.step - b.data.step);
  const laid = tree<(typeof rows)[number]>().nodeSize([1, 1])(root);
  const pos = new Map<string, { x: number; y: number }>();
  for (const d of laid.descendants()) if (d.data.id !== ROOT) pos.set(d.data.id, { x: d.x, y: d.depth });
  const edges: [string, string][] = [];
  const crossEdges: [string, string][] = [];
  for (const n of nodes) {
    const first = primary(n);
    if (first !== ROOT) edges.push([first, n.nodeId]);
    for (const p of n.parents) if (p !== first && ids.has(p)) crossEdges.push([p, n.nodeId]);
  }
  return { pos, edges, crossEdges };
}
