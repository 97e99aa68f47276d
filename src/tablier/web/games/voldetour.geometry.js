// Voldétour board: coordinates, the isometric projection and the faces of the solids
// (pure functions, no DOM, no state).  Part of games/voldetour.js (see its header).

import { t } from "../i18n.js";

// isometric projection: screen x = (u - v) * A, screen y = (u + v) * B - z * C
const A = 24;
const B = 12;
const C = 20;
// direction of projection (towards the viewer) in view coordinates (u, v, z)
const K = [1, 1, (2 * B) / C];
// light direction in view coordinates, normalised
const LIGHT = (() => {
  const l = [0.25, 0.5, 0.83];
  const n = Math.hypot(...l);
  return l.map((x) => x / n);
})();
export const DIRS = { n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0] };
export const ARROWS = { n: "↑", e: "→", s: "↓", w: "←", u: "⇅" };
/** How a slope lies, in words (`dir`: n, e, s, w, or u for a stair nested upside down). */
export function dirWords(dir) {
  return { n: t("rises north"), e: t("rises east"), s: t("rises south"), w: t("rises west"),
    u: t("upside down, nested on a slope") }[dir] || dir;
}
export const MAP_SQ = 34;

export function labelOf(files, x, y) {
  return `${files[x]}${y + 1}`;
}

export function coordOf(files, label) {
  return [files.indexOf(label[0]), parseInt(label.slice(1), 10) - 1];
}

export function sideFill(owner) {
  return owner === 0 ? "var(--vd-side0)" : "var(--vd-side1)";
}

/** Rotate a horizontal vector by r quarter turns counterclockwise. */
export function rotVec(r, dx, dy) {
  switch (r & 3) {
    case 1: return [-dy, dx];
    case 2: return [-dx, -dy];
    case 3: return [dy, -dx];
    default: return [dx, dy];
  }
}

/** The projector of a board W x H seen with rotation r. */
export function projector(W, H, r) {
  const toView = (x, y, z) => {
    const [rx, ry] = rotVec(r, x - W / 2, y - H / 2);
    return [rx, -ry, z];
  };
  return {
    point(x, y, z) {
      const [u, v] = toView(x, y, z);
      return [(u - v) * A, (u + v) * B - z * C];
    },
    depth(x, y, z) {
      // the cell's centre: sorting by u + v + z is a valid painter's order for unit cells
      const [u, v] = toView(x + 0.5, y + 0.5, 0);
      return u + v + z;
    },
    normal(nx, ny, nz) {
      const [rx, ry] = rotVec(r, nx, ny);
      return [rx, -ry, nz];
    },
  };
}

export function visible(n) {
  return n[0] * K[0] + n[1] * K[1] + n[2] * K[2] > 1e-9;
}

export function shadeOf(n) {
  // how much darker than its colour a face is drawn: lit from above, a little from the left
  const len = Math.hypot(...n) || 1;
  const d = (n[0] * LIGHT[0] + n[1] * LIGHT[1] + n[2] * LIGHT[2]) / len;
  return (1 - (0.5 + 0.5 * d)) * 0.8;
}

// The faces of a unit cell's solids, in local coordinates ([0,1]^3 relative to the cell),
// each {pts, n (outward normal), edges (neighbour direction of each edge or null)}.
export function cubeFaces() {
  return [
    { n: [0, 0, 1], pts: [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]] },
    { n: [0, 0, -1], pts: [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]] },
    { n: [1, 0, 0], pts: [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]] },
    { n: [-1, 0, 0], pts: [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]] },
    { n: [0, 1, 0], pts: [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]] },
    { n: [0, -1, 0], pts: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]] },
  ];
}

// A wedge rising towards +y (local "north"); `inverted` is the upper half (nested stair).
export function wedgeFaces(inverted) {
  if (!inverted) {
    return [
      { n: [0, -1, 1], pts: [[0, 0, 0], [1, 0, 0], [1, 1, 1], [0, 1, 1]], slope: true },
      { n: [0, 1, 0], pts: [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]] },
      { n: [1, 0, 0], pts: [[1, 0, 0], [1, 1, 0], [1, 1, 1]] },
      { n: [-1, 0, 0], pts: [[0, 0, 0], [0, 1, 1], [0, 1, 0]] },
      { n: [0, 0, -1], pts: [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]] },
    ];
  }
  return [
    { n: [0, 0, 1], pts: [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]] },
    { n: [0, -1, 0], pts: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]] },
    { n: [1, 0, 0], pts: [[1, 0, 0], [1, 0, 1], [1, 1, 1]] },
    { n: [-1, 0, 0], pts: [[0, 0, 0], [0, 1, 1], [0, 0, 1]] },
    { n: [0, 1, -1], pts: [[0, 0, 0], [0, 1, 1], [1, 1, 1], [1, 0, 0]] },
  ];
}

// Turn local wedge coordinates (rising north) to rise towards `dir`.
export function orientPoint(dir, [a, b, c]) {
  switch (dir) {
    case "e": return [b, 1 - a, c];
    case "s": return [1 - a, 1 - b, c];
    case "w": return [1 - b, a, c];
    default: return [a, b, c];
  }
}

export function orientNormal(dir, [a, b, c]) {
  switch (dir) {
    case "e": return [b, -a, c];
    case "s": return [-a, -b, c];
    case "w": return [-b, a, c];
    default: return [a, b, c];
  }
}

export function polyPoints(pts) {
  return pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}
