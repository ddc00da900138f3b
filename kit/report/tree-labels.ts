/**
 * Which tree nodes get a printed label ("I 2.998": operator initial and validation score), so labels stay
 * readable on trees of a few to ~160 nodes.
 *
 * Each label is a box below its marker in pixels: width = characters · 0.6 · font, height = lines · 1.25 · font.
 * Labels are placed greedily in priority order (the champion, then its ancestors, then the other nodes best score
 * first); a label is placed one-line if its box overlaps no placed label and no marker, else two-line ("I" over
 * "2.998", narrower), else not at all (its node keeps the hover). Font size falls with the node count.
 */

/** Operator initials on the tree (the legend names the operators). */
export const OPERATOR_INITIAL: Record<string, string> = { draft: "D", improve: "I", debug: "B", crossover: "C" };
export const operatorInitial = (op: string) => OPERATOR_INITIAL[op] ?? op.slice(0, 1).toUpperCase();

export interface LabelCandidate {
  readonly id: string;
  /** Data coordinates of the marker. */
  readonly x: number;
  readonly y: number;
  readonly initial: string;
  readonly score: string;
  /** Lower goes first. */
  readonly priority: number;
  /** Radius of the marker the label hangs under, when larger than the plot's markers (the champion's ring). */
  readonly radiusPx?: number;
}

export interface LabelGeometry {
  /** The plot area in pixels and the data ranges it shows (y downwards: yRange[0] at the top). */
  readonly widthPx: number;
  readonly heightPx: number;
  readonly xRange: readonly [number, number];
  readonly yRange: readonly [number, number];
  readonly fontPx: number;
  /** Marker diameter in pixels. */
  readonly markerPx: number;
}

/** Label font size by node count: 11 px up to 40 nodes, 10 px up to 100, else 9 px. */
export const labelFontPx = (nodes: number) => (nodes <= 40 ? 11 : nodes <= 100 ? 10 : 9);

type Box = readonly [number, number, number, number]; // x0, y0, x1, y1
const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * The label text of each placed node (one line "I 2.998" or two lines "I<br>2.998"); nodes left out are absent.
 * `markers` are every marker on the plot (labelled or not), in data coordinates.
 */
export function placeTreeLabels(
  candidates: readonly LabelCandidate[],
  markers: readonly { readonly x: number; readonly y: number }[],
  g: LabelGeometry,
): Map<string, string> {
  const px = (x: number) => ((x - g.xRange[0]) / (g.xRange[1] - g.xRange[0])) * g.widthPx;
  const py = (y: number) => ((y - g.yRange[0]) / (g.yRange[1] - g.yRange[0])) * g.heightPx;
  const r = g.markerPx / 2;
  const markerBoxes: Box[] = markers.map((m) => [px(m.x) - r, py(m.y) - r, px(m.x) + r, py(m.y) + r]);
  const placed: Box[] = [];
  const out = new Map<string, string>();
  const box = (c: LabelCandidate, lines: readonly string[]): Box => {
    const w = Math.max(...lines.map((l) => l.length)) * 0.6 * g.fontPx;
    const top = py(c.y) + (c.radiusPx ?? r) + 1;
    return [px(c.x) - w / 2, top, px(c.x) + w / 2, top + lines.length * 1.25 * g.fontPx];
  };
  for (const c of [...candidates].sort((a, b) => a.priority - b.priority)) {
    for (const lines of [[`${c.initial} ${c.score}`], [c.initial, c.score]]) {
      const b = box(c, lines);
      if (b[3] > g.heightPx + 2 * g.fontPx) continue; // below the plot area's bottom margin
      if (placed.some((p) => overlaps(p, b)) || markerBoxes.some((m) => overlaps(m, b))) continue;
      placed.push(b);
      out.set(c.id, lines.join("<br>"));
      break;
    }
  }
  return out;
}
