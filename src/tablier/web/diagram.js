// Shapes the board modules draw on a diagram (docs/web-client.md, "Diagrams"): an arrow
// between two cells and a cross on a cell, in SVG, with the classes the rules page's
// styles, print sheet and tests read.  Each board module places them with its own
// geometry: it gives the points (in its SVG's units) and the size of a cell.

import { svg } from "./ui.js";

/**
 * An arrow from `a` to `b` (points [x, y]), from the cell `from` to the cell `to`, for a
 * board whose cells are about `size` across: a shaft that starts and stops short of the
 * cells' centres, and a filled head.  → the <g class="diagram-arrow">.
 */
export function diagramArrow(a, b, from, to, size) {
  const [x1, y1] = a;
  const [x2, y2] = b;
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / length;
  const uy = (y2 - y1) / length;
  const start = Math.min(size * 0.2, length / 4);
  const stop = Math.min(size * 0.3, length / 4);
  const head = size * 0.38;
  const sx = x1 + ux * start;
  const sy = y1 + uy * start;
  const ex = x2 - ux * stop;
  const ey = y2 - uy * stop;
  const bx = ex - ux * head;
  const by = ey - uy * head;
  const wing = head * 0.55;
  const g = svg("g", { class: "diagram-arrow", "data-from": from, "data-to": to, "pointer-events": "none" });
  g.append(
    svg("line", { class: "shaft", x1: sx, y1: sy, x2: bx, y2: by, "stroke-width": size * 0.12 }),
    svg("polygon", {
      class: "head",
      points: [
        [ex, ey],
        [bx - uy * wing, by + ux * wing],
        [bx + uy * wing, by - ux * wing],
      ].map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" "),
    }),
  );
  return g;
}

/** A cross on the cell `cell` centred at `p` ([x, y]), `size` across. → <g class="diagram-mark">. */
export function diagramCross(p, cell, size) {
  const [x, y] = p;
  const d = size * 0.32;
  const g = svg("g", { class: "diagram-mark", "data-cell": cell, "pointer-events": "none" });
  g.append(
    svg("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d, "stroke-width": size * 0.12 }),
    svg("line", { x1: x - d, y1: y + d, x2: x + d, y2: y - d, "stroke-width": size * 0.12 }),
  );
  return g;
}
